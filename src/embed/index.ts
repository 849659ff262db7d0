// affiliate-kit/embed: the embedded referral dashboard as a web component (docs/embed.md).
//   import { defineDashboardElement } from 'affiliate-kit/embed'
//   defineDashboardElement()
//   <affiliate-kit-dashboard token="ake_..." base-url="https://partners.example.com/portal" theme="dark">
export { DASHBOARD_TAG, dashboardUrl, defineDashboardElement, type DashboardMessage } from './dashboard-element.js'
