// A conversion's fraud verdict (docs/fraud.md): the strictest action among the rules it trips and
// the program's own fraudCheck, with the reasons of those that do something.
import type { FraudAction, FraudSettings } from '../../model/types.js'
import { trippedRules, type FraudFlag, type RuleContext } from './rules.js'
import type { FraudCheckConversion, FraudSignals } from './signals.js'

export type FraudCheckResult = FraudAction | { action: FraudAction; reason?: string }

/**
 * The program's own check (the `fraudCheck` program option), called for every conversion about
 * to be created with what the rules saw, inside its transaction; it may be async.
 */
export type FraudCheck = (conversion: FraudCheckConversion, signals: FraudSignals & { flags: FraudFlag[] }) => FraudCheckResult | Promise<FraudCheckResult>

export interface FraudVerdict {
  action: FraudAction
  /** Why it is held or rejected; null when allowed. */
  reason: string | null
}

const SEVERITY: Record<FraudAction, number> = { allow: 0, review: 1, reject: 2 }

/** `conversion` may be given as a function: it is then called only when there is a check to show it to. */
export async function fraudVerdict(
  input: { conversion: FraudCheckConversion | (() => FraudCheckConversion); signals: FraudSignals; settings: FraudSettings } & RuleContext,
  check: FraudCheck | undefined,
): Promise<FraudVerdict> {
  const flags = trippedRules(input.signals, input.settings, input)
  const acting: Array<Omit<FraudFlag, 'rule'>> = flags.length === 0 ? [] : flags.filter((flag) => flag.action !== 'allow')
  if (check) {
    const conversion = typeof input.conversion === 'function' ? input.conversion() : input.conversion
    const own = ownFlag(await check(conversion, { ...input.signals, flags }))
    if (own.action !== 'allow') acting.push(own)
  }
  if (acting.length === 0) return { action: 'allow', reason: null }
  const action = acting.reduce<FraudAction>((worst, flag) => (SEVERITY[flag.action] > SEVERITY[worst] ? flag.action : worst), 'allow')
  return { action, reason: acting.map((flag) => flag.reason).join('; ') }
}

function ownFlag(result: FraudCheckResult): Omit<FraudFlag, 'rule'> {
  const action = typeof result === 'string' ? result : result?.action
  if (action !== 'allow' && action !== 'review' && action !== 'reject') {
    throw new TypeError(`fraudCheck must return 'allow', 'review', 'reject' or { action, reason }, not ${JSON.stringify(result)}`)
  }
  const reason = typeof result === 'object' && typeof result.reason === 'string' && result.reason.trim() !== '' ? result.reason.trim().slice(0, 500) : 'held by the program\'s fraud check'
  return { action, reason }
}
