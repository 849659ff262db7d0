// API keys (docs/api.md "Authentication and scopes"): `rgk_` + 32 random bytes base62, stored only as a SHA-256 hash
// with a display prefix; the full key is shown once, at creation.
import type { ProjectContext } from '../rules/context.js'
import { NotFoundError, ValidationError } from '../model/errors.js'
import { newApiKey, sha256Hex } from '../model/random.js'
import { createApiKeyInput, validate, type CreateApiKeyInput } from '../model/schemas.js'
import type { DomainStore } from '../ports/storage.js'
import { UniqueViolation } from '../ports/unique-violation.js'
import type { ApiKeyRecord, Scope } from '../model/types.js'

export interface ApiKeyView {
  id: number
  name: string | null
  prefix: string
  scopes: Scope[]
  createdAt: Date
  revokedAt: Date | null
}

export interface VerifiedKey {
  projectId: string
  keyId: number
  scopes: Scope[]
  /** Set on a publishable key (`rgp_`): it may only record clicks and signups from the browser. */
  publishable?: true
}

const SECRET_KEY = /^rgk_[0-9A-Za-z]{20,64}$/
const PUBLISHABLE_KEY = /^rgp_[0-9A-Za-z]{20,64}$/

function keyView(record: ApiKeyRecord): ApiKeyView {
  const { id, name, prefix, scopes, createdAt, revokedAt } = record
  return { id, name, prefix, scopes, createdAt, revokedAt }
}

export function hasScope(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.includes('*') || scopes.includes(needed)
}

const RECENT_DIGESTS_MAX = 1024

/**
 * The digest of a key, remembering those of recently presented keys (a client sends the same
 * key with every request); bounded. One per verifier, so no key outlives its handler.
 */
function digestCache(): (key: string) => string {
  const recent = new Map<string, string>()
  return (key) => {
    let digest = recent.get(key)
    if (digest === undefined) {
      if (recent.size >= RECENT_DIGESTS_MAX) recent.clear()
      digest = sha256Hex(key)
      recent.set(key, digest)
    }
    return digest
  }
}

export type KeyVerifier = (key: string) => Promise<VerifiedKey | null>

/**
 * Verifies presented keys: the project and scopes of a key; null for unknown, malformed or revoked
 * keys. Only digests are remembered between calls: the record is read every time, so a
 * revocation counts from the next request on.
 */
export function keyVerifier(storage: DomainStore): KeyVerifier {
  const digestOf = digestCache()
  return async (key) => {
    const publishable = PUBLISHABLE_KEY.test(key)
    if (!publishable && !SECRET_KEY.test(key)) return null
    // Found by the SHA-256 digest of the key: the lookup's timing says nothing usable about the key.
    const record = await storage.apiKeys.findByHash(digestOf(key))
    if (!record || record.revokedAt) return null
    if (publishable) return { projectId: record.projectId, keyId: record.id, scopes: [], publishable: true }
    return { projectId: record.projectId, keyId: record.id, scopes: record.scopes }
  }
}

export function keysService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function insert(key: string, name: string | null, scopes: Scope[]): Promise<ApiKeyView> {
    const record = await storage.apiKeys.insert({
      projectId,
      name,
      prefix: key.slice(0, 8),
      hash: sha256Hex(key),
      scopes,
      createdAt: ctx.clock.now(),
      revokedAt: null,
    })
    return keyView(record)
  }

  /** The view of an existing key, when it is this project's. */
  function ownKey(record: ApiKeyRecord): ApiKeyView {
    if (record.projectId !== projectId) throw new NotFoundError('this key belongs to another project', 'key')
    return keyView(record)
  }

  return {
    /** Creates a key; `key` is the only time the full secret is available. @default scopes ['*'] */
    async create(input: CreateApiKeyInput = {}): Promise<{ key: string; record: ApiKeyView }> {
      const data = validate(createApiKeyInput, input)
      const key = newApiKey()
      return { key, record: await insert(key, data.name ?? null, data.scopes ?? ['*']) }
    },

    /**
     * Creates a publishable key (`rgp_...`), safe to ship in a web page: it has no scope on the
     * API and may only record clicks and signups through the tracking handler (docs/tracking.md).
     */
    async createPublishable(input: { name?: string } = {}): Promise<{ key: string; record: ApiKeyView }> {
      const data = validate(createApiKeyInput, { ...(input.name === undefined ? {} : { name: input.name }) })
      const key = `rgp_${newApiKey().slice(4)}`
      return { key, record: await insert(key, data.name ?? null, []) }
    },

    /** Makes sure this exact key exists for the project (e.g. from AFFILIATE_KIT_API_KEY). */
    async ensure(key: string, scopes: Scope[] = ['*']): Promise<ApiKeyView> {
      if (!SECRET_KEY.test(key)) throw new ValidationError('key', 'API keys look like rgk_ followed by 20 to 64 letters or digits')
      const existing = await storage.apiKeys.findByHash(sha256Hex(key))
      if (existing) return ownKey(existing)
      try {
        return await insert(key, 'environment', scopes)
      } catch (error) {
        // Another process stored the same key meanwhile (two servers starting together): it is there now.
        const stored = error instanceof UniqueViolation && (await storage.apiKeys.findByHash(sha256Hex(key)))
        if (stored) return ownKey(stored)
        throw error
      }
    },

    async list(): Promise<ApiKeyView[]> {
      return (await storage.apiKeys.all(projectId, {})).map(keyView)
    },

    async revoke(id: number): Promise<void> {
      const revoked = await storage.apiKeys.update(projectId, id, { revokedAt: ctx.clock.now() }, { unrevoked: true })
      if (!revoked) throw new NotFoundError('API key not found', 'id')
    },
  }
}
