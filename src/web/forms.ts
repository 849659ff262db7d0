// Reading a posted HTML form: urlencoded only, size-limited; anything else is a clear 4xx.

export const MAX_FORM_BYTES = 16 * 1024

export class FormError extends Error {
  constructor(
    readonly status: 413 | 415 | 400,
    message: string,
  ) {
    super(message)
    this.name = 'FormError'
  }
}

export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') throw new FormError(415, 'forms must be sent as application/x-www-form-urlencoded')
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > MAX_FORM_BYTES) throw new FormError(413, 'the form is too large')
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength > MAX_FORM_BYTES) throw new FormError(413, 'the form is too large')
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new FormError(400, 'the form is not valid UTF-8')
  }
  return new URLSearchParams(text)
}
