// POST /affiliates/:email/portal-link for the route tables of both shapes (docs/api.md "POST
// /affiliates/{email}/portal-link"): a one-time sign-in link to the affiliate portal handed to
// createHandler (option portal), built from the portal's configured public URL only. 409 when
// there is no portal or it has no public URL. The answer holds the link's secret, so an
// Idempotency-Key never stores it for replays.
import type { ProjectScope } from '../core/program.js'
import { portalSignInLink } from '../core/portal-sign-in.js'
import { apiOperations } from './api-operations.js'
import { defineRoute, type ResponseDef } from './route.js'

/** How one shape names the affiliate in the path and writes the link. */
export interface PortalLinkShape<Response extends ResponseDef> {
  response: Response
  /** The affiliate the path names (an email; the alternative shape also takes its `aff_` id). */
  affiliate(api: ProjectScope, param: string): Promise<{ email: string }>
  body(link: { url: string; expiresAt: Date }): unknown
}

export function portalLinkRoutes<Response extends ResponseDef>(shape: PortalLinkShape<Response>) {
  return [
    defineRoute({
      ...apiOperations.postAffiliatesEmailPortalLink,
      responses: { 201: shape.response },
      secretAnswer: true,
      async run({ api, params, portal }) {
        const { email } = await shape.affiliate(api, params.email ?? '')
        return { status: 201, body: shape.body(await portalSignInLink(portal, api.projectId, email)) }
      },
    }),
  ] as const
}
