// Who a visitor is: the salted day hash of src/core/visitor-hash.ts, shared with the portal's
// record of the affiliate's own visits (docs/fraud.md).
export { newVisitorSalt, shortVisitor, visitorHash } from '../core/visitor-hash.js'
