// Tax ids encrypted at rest (docs/tax-details.md): AES-256-GCM under the current key, each
// ciphertext naming the key it was made with, so older keys can still decrypt after a rotation.
// The associated data binds a ciphertext to its project and affiliate: copied to another row, it
// does not decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { ConflictError } from './errors.js'

/** One key: an id of 1 to 32 letters, digits, `_` or `-`, and 32 bytes in base64. */
export interface TaxIdKey {
  id: string
  key: string
}

/** The key new ciphertexts use, and the earlier keys still accepted for decryption. */
export interface TaxIdKeys {
  current: TaxIdKey
  previous?: TaxIdKey[]
}

/**
 * A ciphertext cannot be read with the configured keys: its key is not configured, or the key
 * of that id is not the one it was made with. The message names the key id, never the data.
 */
export class TaxIdKeyError extends ConflictError {
  constructor(
    readonly keyId: string,
    message: string,
  ) {
    super(message)
    this.name = 'TaxIdKeyError'
  }
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/
const VERSION = 'v1'

function keyBytes(key: TaxIdKey, where: string): Buffer {
  if (typeof key?.id !== 'string' || !KEY_ID.test(key.id)) throw new TypeError(`${where}.id must be 1 to 32 letters, digits, _ or -`)
  const bytes = typeof key.key === 'string' && /^[A-Za-z0-9+/_-]+={0,2}$/.test(key.key) ? Buffer.from(key.key, 'base64') : Buffer.alloc(0)
  if (bytes.length !== 32) throw new TypeError(`${where} (key ${key.id}) must be 32 bytes in base64 (openssl rand -base64 32)`)
  return bytes
}

/**
 * `AFFILIATE_KIT_TAX_ID_KEYS`: `id:base64key` entries separated by commas, the current key first,
 * then the earlier ones.
 */
export function parseTaxIdKeys(text: string): TaxIdKeys {
  const keys = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const colon = entry.indexOf(':')
      return { id: colon < 0 ? entry : entry.slice(0, colon), key: colon < 0 ? '' : entry.slice(colon + 1) }
    })
  if (keys.length === 0) throw new TypeError('tax id keys: give at least one id:base64key')
  return { current: keys[0]!, previous: keys.slice(1) }
}

export interface TaxIdCipher {
  /** The id of the key new ciphertexts use. */
  readonly currentKeyId: string
  encrypt(plain: string, context: string): string
  /** Throws TaxIdKeyError when the ciphertext's key is not configured or is not its key. */
  decrypt(envelope: string, context: string): string
  /** The key id a ciphertext names. */
  keyIdOf(envelope: string): string
}

export function taxIdCipher(keys: TaxIdKeys): TaxIdCipher {
  const ring = new Map<string, Buffer>()
  ring.set(keys.current.id, keyBytes(keys.current, 'current key'))
  for (const [index, key] of (keys.previous ?? []).entries()) {
    const bytes = keyBytes(key, `previous key ${index + 1}`)
    if (ring.has(key.id)) throw new TypeError(`tax id keys: the key id ${key.id} is given twice`)
    ring.set(key.id, bytes)
  }
  const parts = (envelope: string) => {
    const [version, keyId, iv, tag, data, ...rest] = envelope.split('.')
    if (version !== VERSION || !keyId || !iv || !tag || data === undefined || rest.length > 0) throw new TaxIdKeyError('?', 'a stored tax id is not a v1 ciphertext')
    return { keyId, iv: Buffer.from(iv, 'base64url'), tag: Buffer.from(tag, 'base64url'), data: Buffer.from(data, 'base64url') }
  }
  return {
    currentKeyId: keys.current.id,
    encrypt(plain, context) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', ring.get(keys.current.id)!, iv)
      cipher.setAAD(Buffer.from(context))
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return [VERSION, keys.current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.')
    },
    decrypt(envelope, context) {
      const { keyId, iv, tag, data } = parts(envelope)
      const key = ring.get(keyId)
      if (!key) throw new TaxIdKeyError(keyId, `a stored tax id is encrypted with key ${keyId}, which is not among the configured tax id keys`)
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv)
        decipher.setAAD(Buffer.from(context))
        decipher.setAuthTag(tag)
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8')
      } catch {
        throw new TaxIdKeyError(keyId, `a stored tax id does not decrypt with the configured key ${keyId}: that key is not the one it was encrypted with`)
      }
    },
    keyIdOf: (envelope) => parts(envelope).keyId,
  }
}
