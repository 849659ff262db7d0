// affiliate-kit/react: the embedded referral dashboard as a React component (docs/embed.md "React").
// React is a peer dependency; the component wraps the <affiliate-kit-dashboard> element of affiliate-kit/embed.
export { ReferralDashboard, type DashboardAppearance, type ReferralDashboardProps } from './referral-dashboard.js'
export type { DashboardMessage } from '../embed/dashboard-element.js'
