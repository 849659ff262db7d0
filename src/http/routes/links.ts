// /links (docs/links.md): an affiliate's links listed, created, read, changed and deleted, and each
// one's QR code as an SVG or PNG image, once for every shape. Scopes: affiliates:read and :write.
import type * as v from 'valibot'
import type { QrImage } from '../../core/affiliates/link-qr.js'
import type { ProjectScope } from '../../core/program.js'
import { BytesBody, defined, defineOperation, pathId, TextBody, type Given } from '../route.js'
import { linkQrQuery, updateLinkBody } from '../schemas.js'

type Links = ProjectScope['links']

/** The core's link fields from a body's snake_case ones. */
export function linkInput(body: v.InferOutput<typeof updateLinkBody>) {
  return defined({
    key: body.key,
    destination: body.destination,
    domain: body.domain,
    utmSource: body.utm_source,
    utmMedium: body.utm_medium,
    utmCampaign: body.utm_campaign,
    utmTerm: body.utm_term,
    utmContent: body.utm_content,
  })
}

/** The QR code's image as the answer's body, in its own content type. */
export function qrAnswer(image: QrImage): TextBody | BytesBody {
  return typeof image.content === 'string' ? new TextBody(image.contentType, image.content) : new BytesBody(image.contentType, image.content)
}

export const listLinks = defineOperation({
  id: 'getLinks',
  method: 'GET',
  path: '/links',
  scope: 'affiliates:read',
  summary: "List links, newest first: all of them or one affiliate's",
  errors: [400, 404],
  run: ({ api, input }: Given<Parameters<Links['list']>[0]>) => api.links.list(input),
})

export const createLink = defineOperation({
  id: 'postLinks',
  method: 'POST',
  path: '/links',
  scope: 'affiliates:write',
  summary: 'Create a link of an affiliate: its key, destination, short domain and UTM defaults',
  errors: [400, 404, 409],
  status: 201,
  run: ({ api, input }: Given<Parameters<Links['create']>[0]>) => api.links.create(input),
})

export const getLink = defineOperation({
  id: 'getLinksId',
  method: 'GET',
  path: '/links/:id',
  scope: 'affiliates:read',
  summary: 'Retrieve a link',
  errors: [400, 404],
  run: ({ api, params }) => api.links.get(pathId(params.id, 'link')),
})

export const updateLink = defineOperation({
  id: 'patchLinksId',
  method: 'PATCH',
  path: '/links/:id',
  scope: 'affiliates:write',
  summary: 'Change the fields of a link given (null clears one)',
  errors: [400, 404, 409],
  body: updateLinkBody,
  run: ({ api, params, body }) => api.links.update(pathId(params.id, 'link'), linkInput(body)),
})

export const deleteLink = defineOperation({
  id: 'deleteLinksId',
  method: 'DELETE',
  path: '/links/:id',
  scope: 'affiliates:write',
  summary: 'Delete a link',
  errors: [400, 404],
  status: 204,
  run: ({ api, params }) => api.links.delete(pathId(params.id, 'link')),
})

export const linkQrCode = defineOperation({
  id: 'getLinksIdQr',
  method: 'GET',
  path: '/links/:id/qr',
  scope: 'affiliates:read',
  summary: "The QR code of a link's short URL: an SVG or PNG image of the size asked",
  errors: [400, 404, 409],
  query: linkQrQuery,
  run: ({ api, params, query }) => api.links.qr(pathId(params.id, 'link'), defined({ format: query.format, size: query.size })),
})
