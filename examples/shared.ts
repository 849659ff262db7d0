// Shared by the examples: a program over the in-memory adapter and an API key (from
// AFFILIATE_KIT_API_KEY when set, else a new one, printed once).
import { createAffiliateProgram, type AffiliateProgram } from 'affiliate-kit'
import { memoryStorage } from 'affiliate-kit/memory'

export async function exampleProgram(): Promise<{ program: AffiliateProgram; key: string }> {
  const program = await createAffiliateProgram({ storage: memoryStorage() })
  const fromEnv = process.env.AFFILIATE_KIT_API_KEY
  if (fromEnv) {
    await program.keys.ensure(fromEnv)
    return { program, key: fromEnv }
  }
  const { key } = await program.keys.create({ name: 'example' })
  return { program, key }
}

/** Whether this module is the one node was asked to run. */
export function isMain(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && new URL(moduleUrl).pathname === process.argv[1]
}
