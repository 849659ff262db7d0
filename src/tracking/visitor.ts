// Who a visitor is: the salted day hash of src/core/model/visitor-hash.ts, shared with the portal's
// record of the affiliate's own visits (docs/fraud.md).
export { newVisitorSalt, shortVisitor, visitorHash } from '../core/model/visitor-hash.js'
