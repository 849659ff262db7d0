// affiliate-kit/tracking: referral links, the referral cookie, browser reports with publishable
// keys, and the browser snippet served as a script (docs/tracking.md).
export { createTrackingHandler } from './handler.js'
export type { TrackingFetchHandler, TrackingHandler, TrackingOptions, VisitCount } from './handler.js'
export { redirectTarget } from './redirect-target.js'
export type { IncentiveAnswer } from './incentive.js'
