// /embed-tokens (docs/embed.md): the host's server asks for a token that opens its user's embedded
// dashboard, the user found among the affiliates by email or enrolled. The answer holds a secret,
// so an Idempotency-Key never stores it.
import type { ProjectScope } from '../../core/program.js'
import { defineOperation, type Given } from '../route.js'

type Embed = ProjectScope['embed']

export const createEmbedToken = defineOperation({
  id: 'postEmbedTokens',
  method: 'POST',
  path: '/embed-tokens',
  scope: 'affiliates:write',
  summary: "Create a token that opens an affiliate's embedded dashboard, enrolling the affiliate when there is none with the email",
  errors: [400, 404, 409],
  status: 201,
  secretAnswer: true,
  async run({ api, input, portal }: Given<Parameters<Embed['createToken']>[0]>) {
    const created = await api.embed.createToken(input)
    return { ...created, url: portal?.projectId === api.projectId ? (portal.embedUrl?.(created.token) ?? null) : null }
  },
})
