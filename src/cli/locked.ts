// What a command says when a running server holds its embedded PGlite directory and the command
// cannot go through the server's socket (key-socket.ts): who holds it, and the exact commands to
// run instead, the user's own command line included (an API key in it shown as <key>).
import type { DataDirLockedError } from '../adapters/pglite/data-dir-lock.js'

/** The command as typed, after `affiliate-kit`: quoted for a shell, secrets left out. */
export function commandLine(argv: readonly string[] = process.argv.slice(2)): string {
  const shown: string[] = []
  for (const [index, arg] of argv.entries()) {
    if (argv[index - 1] === '--api-key') shown.push('<key>')
    else if (arg.startsWith('--api-key=')) shown.push('--api-key=<key>')
    else shown.push(/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)
  }
  return ['npx affiliate-kit', ...shown].join(' ')
}

/** One line: the directory's holder, then stop it, run this command, start it again. */
export function lockedMessage(error: DataDirLockedError): string {
  return `${error.dataDir} is in use by process ${error.pid}, and embedded PGlite admits one process (nothing answers this command on the directory's socket). Stop that process (Ctrl-C where it runs, or kill ${error.pid}), run \`${commandLine()}\`, then start it again; or use PostgreSQL (DATABASE_URL), where both run side by side`
}
