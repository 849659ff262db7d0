// UniqueViolation: what every adapter throws when a write breaks one of the uniqueness rules the
// port names (its own file: the generic table contract names the rules too, without the port).

/** Thrown by an adapter when a write breaks a uniqueness rule. */
export class UniqueViolation extends Error {
  constructor(readonly constraint: UniqueConstraint) {
    super(`unique constraint violated: ${constraint}`)
    this.name = 'UniqueViolation'
  }
}
export type UniqueConstraint =
  | 'project_name'
  | 'affiliate_email'
  | 'affiliate_external_id'
  | 'affiliate_referral_code'
  | 'link_key'
  | 'referral_email'
  | 'conversion_reference'
  | 'coupon_code'
  | 'api_key_hash'
  | 'provider_event'
