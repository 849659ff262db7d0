// `affiliate-kit tax-ids reencrypt`: re-encrypts every stored tax id under the current key of
// AFFILIATE_KIT_TAX_ID_KEYS, after a key rotation (docs/tax-details.md "Rotating the key").
import type { Command } from '../command.js'
import { DATABASE_HELP, withProgram } from '../database.js'
import { CliError } from '../errors.js'

export const taxIdsReencryptCommand: Command = {
  name: 'tax-ids reencrypt',
  usage: 'affiliate-kit tax-ids reencrypt [--database <db>]',
  help: `Re-encrypts every stored tax id under the first key of AFFILIATE_KIT_TAX_ID_KEYS (id:base64,...: the new key
first, then the old ones). All or nothing: a tax id no given key opens stops it, naming that key id.\n\n${DATABASE_HELP}`,
  options: { database: { type: 'string' } },
  async run(values, _positionals, log) {
    if (!process.env.AFFILIATE_KIT_TAX_ID_KEYS) throw new CliError('AFFILIATE_KIT_TAX_ID_KEYS is not set: give the new key first, then the old ones (id:base64,id:base64)')
    const { reencrypted, unchanged } = await withProgram(values, (program) => program.taxDetails.reencrypt())
    log(`${reencrypted} tax id(s) re-encrypted, ${unchanged} already under the current key`)
    return 0
  },
}
