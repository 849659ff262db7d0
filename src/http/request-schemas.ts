// Every REST request schema by name, as affiliate-kit/http exports them (`schemas`): the ones the
// shapes share (schemas.ts) and those of the second shape (docs/api.md), under their published names.
export * from './schemas.js'
export { listQuery as listQueryAlternative } from './schemas.js'
export {
  createAffiliateBodyAlternative,
  createConversionBodyAlternative,
  createCouponBodyAlternative,
  createPayoutBodyAlternative,
  createReferralBodyAlternative,
  listAffiliatesQueryAlternative,
  updateAffiliateBodyAlternative,
  updateReferralBodyAlternative,
  wireId as alternativeId,
} from './shapes/alternative-records.js'
