// `affiliate-kit portal link <email>`: a one-time sign-in link to the affiliate portal, for the
// owner to send. Built from portal.publicUrl of the server's config only. On embedded PGlite a
// running server holds the data directory, so the link comes from that server and its config
// (key-socket.ts); otherwise the command opens the database with the config given by --config.
import { DataDirLockedError } from '../../adapters/pglite/data-dir-lock.js'
import { portalSignInLink } from '../../core/affiliates/portal-sign-in.js'
import type { Command, OptionValues } from '../command.js'
import { loadConfig } from '../config.js'
import { DATABASE_HELP, databaseTarget, openProgram } from '../database.js'
import { CliError } from '../errors.js'
import { keySocketClient } from '../key-socket.js'

type Link = { url: string; expiresAt: Date }

/** The link from the database itself, with the portal the config describes. */
async function linkFromDatabase(values: OptionValues, email: string): Promise<Link> {
  const configPath = values.config as string | undefined
  const config = loadConfig(configPath)
  const { program, storage } = await openProgram(databaseTarget(values.database as string | undefined).target)
  try {
    if (!configPath) throw new CliError('portal link needs the server\'s config file (--config <file>): the link is built from its portal.publicUrl')
    const portal = config.portal?.enabled ? (await import('../portal-mount.js')).configuredPortal(program, { sessions: storage.sessions, state: storage.keyedState }, config.portal, config.tracking) : null
    return await portalSignInLink(portal, program.projectId, email)
  } finally {
    await program.close()
  }
}

async function signInLink(values: OptionValues, email: string): Promise<Link> {
  try {
    return await linkFromDatabase(values, email)
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    const server = await keySocketClient(error.dataDir)
    if (server) return server.portalLink(email)
    throw new CliError(`${error.dataDir} is in use by process ${error.pid}, which does not take portal commands: stop it, run this command, then start it again`)
  }
}

export const portalLinkCommand: Command = {
  name: 'portal link',
  usage: 'affiliate-kit portal link <email> [--config <file>] [--database <db>]',
  help: `Prints a one-time sign-in link to the affiliate portal for the affiliate with this email,
for you to send them. It works once, within portal.signInLinkTtlSeconds (15 minutes by default).
The link is built from portal.publicUrl of the config only. A server running on the same embedded
PGlite directory makes it with its own config; otherwise pass the server's config file.

  --config <file>    the server's config file (portal.enabled and portal.publicUrl)
${DATABASE_HELP}`,
  options: { config: { type: 'string' }, database: { type: 'string' } },
  positionals: ['email'],
  async run(values, [email], log) {
    const { url, expiresAt } = await signInLink(values, email!)
    log(`${url}\n(works once, until ${expiresAt.toISOString()})`)
    return 0
  },
}
