// affiliate-kit/portal: the affiliate portal, a Fetch handler to mount in the host's app.
export { createPortal } from './portal.js'
export type { Portal, PortalOptions, SignInRequest } from './portal.js'
export type { PortalProgram } from './program.js'
export type { Theme } from '../web/theme.js'
export type { SessionPolicy } from '../web/sessions.js'
export type { SessionStore, WithSessionStore, WebSessionRecord, SignInTokenRecord, SessionAudience } from '../core/ports/session-store.js'
