// A link's QR code (docs/links.md "QR codes"): its short URL drawn as an SVG or a PNG image of the
// side asked for, with the standard quiet zone of 4 modules, by the qrcode package (loaded on the
// first QR code, so a program that draws none never loads it).
import { ValidationError } from '../model/errors.js'
import type { QrFormat } from '../model/link-inputs.js'

export interface QrImage {
  contentType: 'image/svg+xml' | 'image/png'
  /** The SVG's text, or the PNG's bytes. */
  content: string | Uint8Array<ArrayBuffer>
}

/** Modules of white around the symbol (ISO/IEC 18004's quiet zone). */
const QUIET_ZONE = 4
/** Medium error correction: about 15% of the symbol may be damaged and it still reads. */
const ERROR_CORRECTION = 'M'

/** The QR code of `text`, `size` pixels wide and high; a ValidationError naming `size` when it cannot hold the symbol. */
export async function qrImage(text: string, format: QrFormat, size: number): Promise<QrImage> {
  const QRCode = await import('qrcode')
  const modules = QRCode.create(text, { errorCorrectionLevel: ERROR_CORRECTION }).modules.size + 2 * QUIET_ZONE
  if (size < modules) throw new ValidationError('size', (name) => `${name('size')}: must be at least ${modules} pixels for this link's QR code`)
  const options = { errorCorrectionLevel: ERROR_CORRECTION, margin: QUIET_ZONE } as const
  if (format === 'svg') return { contentType: 'image/svg+xml', content: await QRCode.toString(text, { ...options, type: 'svg', width: size }) }
  // The renderer scales modules by width / modules and floors width back from it: a thousandth of a
  // pixel more keeps floating-point error from drawing the image one pixel short (118 for 118).
  const png = await QRCode.toBuffer(text, { ...options, type: 'png', width: size + 0.001 })
  return { contentType: 'image/png', content: new Uint8Array(png) }
}
