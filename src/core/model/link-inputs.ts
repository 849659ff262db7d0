// valibot inputs of the links use cases (docs/links.md): keys follow the referral code's rule,
// UTM values are short single-line text, and a QR code's format and size are bounded. A
// destination and a short domain are checked against the program's link settings by the use case.
import * as v from 'valibot'
import { email, id, limit, offset, referralCode } from './schemas.js'

/** An affiliate named by its id or its email. */
const affiliateRef = v.union([id, email], 'must be an affiliate id or email address')

/** Text that may be cleared: null, or '' (an empty form field), stores null. */
const clearable = (schema: v.GenericSchema<string, string>) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string('must be a string'),
        v.trim(),
        v.transform((text) => (text === '' ? null : text)),
        v.nullable(schema),
      ),
    ),
  )

export const MAX_UTM_LENGTH = 200
const utmValue = clearable(
  v.pipe(v.string(), v.maxLength(MAX_UTM_LENGTH, `must be at most ${MAX_UTM_LENGTH} characters`), v.regex(/^[^\x00-\x1f\x7f]*$/, 'must not contain control characters')),
)
/** Checked against the program's settings by the use case (rules/link-settings.ts). */
const destination = clearable(v.string())
const domain = clearable(v.pipe(v.string(), v.maxLength(253, 'must be at most 253 characters')))

const linkFields = {
  /** `/r/<key>`: 3 to 64 letters, digits, `_` or `-`, as a referral code. */
  key: v.optional(referralCode),
  destination,
  domain,
  utmSource: utmValue,
  utmMedium: utmValue,
  utmCampaign: utmValue,
  utmTerm: utmValue,
  utmContent: utmValue,
}

export const createLinkInput = v.strictObject({ affiliate: affiliateRef, ...linkFields })
export type CreateLinkInput = v.InferInput<typeof createLinkInput>

export const updateLinkInput = v.strictObject(linkFields)
export type UpdateLinkInput = v.InferInput<typeof updateLinkInput>

export const listLinksInput = v.strictObject({ limit, offset, affiliate: v.optional(affiliateRef) })
export type ListLinksInput = v.InferInput<typeof listLinksInput>

export const QR_FORMATS = ['svg', 'png'] as const
export type QrFormat = (typeof QR_FORMATS)[number]
/** The side of a QR code's image, in pixels. */
export const QR_SIZE = { min: 64, max: 1024, default: 256 } as const

export const linkQrInput = v.strictObject({
  format: v.optional(v.picklist(QR_FORMATS, 'must be svg or png')),
  size: v.optional(
    v.pipe(
      v.number('must be an integer'),
      v.safeInteger('must be an integer'),
      v.minValue(QR_SIZE.min, `must be at least ${QR_SIZE.min}`),
      v.maxValue(QR_SIZE.max, `must be at most ${QR_SIZE.max}`),
    ),
  ),
})
export type LinkQrInput = v.InferInput<typeof linkQrInput>
