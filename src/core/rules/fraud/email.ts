// Emails as the fraud rules compare them: the mailbox without case or a +tag
// (ann+shop@example.com is ann@example.com), and the domain.

/** ann+shop@Example.com -> ann@example.com */
export function mailbox(email: string): string {
  const lower = email.trim().toLowerCase()
  const at = lower.lastIndexOf('@')
  if (at === -1) return lower
  const plus = lower.indexOf('+')
  const local = plus !== -1 && plus < at ? lower.slice(0, plus) : lower.slice(0, at)
  return `${local}${lower.slice(at)}`
}

export function domainOf(email: string): string {
  const lower = email.trim().toLowerCase()
  return lower.slice(lower.lastIndexOf('@') + 1)
}

let disposable: Promise<ReadonlySet<string>> | undefined

/**
 * mailchecker's list, loaded when the first domain is looked up: its module is about 1 MB of
 * source, which every start of a server (and of the CLI) would otherwise compile and build.
 */
function disposableDomains(): Promise<ReadonlySet<string>> {
  return (disposable ??= import('mailchecker').then((module) => module.default.blacklist()))
}

/** Whether the domain, or a domain it is under, is on mailchecker's maintained list of disposable-mail domains. */
export async function isDisposableDomain(domain: string): Promise<boolean> {
  const domains = await disposableDomains()
  for (let rest = domain; rest !== ''; rest = rest.includes('.') ? rest.slice(rest.indexOf('.') + 1) : '') {
    if (domains.has(rest)) return true
  }
  return false
}
