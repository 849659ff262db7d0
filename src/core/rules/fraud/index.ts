// Fraud evaluation of a conversion about to be created (docs/fraud.md), called from conversion
// creation: the signals, the settings' rules, and the program's own fraudCheck.
import type { ProjectContext } from '../context.js'
import { addCalendarDays, dayStartIn } from '../../model/calendar.js'
import { ValidationError } from '../../model/errors.js'
import type { Money } from '../../model/money.js'
import { readSignedReferral } from '../../model/signed-referral.js'
import type { CreateReads } from '../../ports/storage.js'
import { visitorSaltOf } from '../visitor-salt.js'
import type { Affiliate, ConversionType, Project } from '../../model/types.js'
import { fraudVerdict, type FraudVerdict } from './check.js'
import { fraudRulesOf } from './settings.js'
import { signalReads, signalsOf, storageSignalsNeeded, type FraudCheckConversion } from './signals.js'

export type { FraudCheck, FraudCheckResult, FraudVerdict } from './check.js'
export type { FraudFlag, FraudRuleName } from './rules.js'
export type { FraudCheckConversion, FraudSignals } from './signals.js'

export interface ConversionFraudInput {
  type: ConversionType
  affiliate: Affiliate
  customerEmail: string | null
  /** The commission it would earn. */
  value: Money
  /** The payment in its own currency, and in the project currency. */
  base: { value: Money; converted: Money } | null
  clickVisitor: string | null
  cardFingerprint: string | null
  reference: string | null
  productId: string | null
  paymentProcessor: string | null
}

/** The visitor of the click a conversion names (its signed referral), or a 400 when it is not one of this project's. */
export async function clickVisitorOf(ctx: ProjectContext, click: string | undefined): Promise<string | null> {
  if (click === undefined) return null
  // A project without a salt gets one here: then no click was signed yet, and this one fails.
  const salt = await visitorSaltOf(ctx)
  const signed = readSignedReferral(salt, click)
  if (!signed) throw new ValidationError('click', (name) => `${name('click')}: is not the signed referral of a click of this program`)
  return signed.visitor
}

/** What the fraud signals of this conversion read from the storage, as part of its create reads (storage.ts CreateReadsQuery). */
export function fraudReads(ctx: ProjectContext, project: Project, input: Pick<ConversionFraudInput, 'type' | 'clickVisitor' | 'cardFingerprint'>, day: string) {
  const timeZone = project.settings.timeZone ?? 'UTC'
  const span = () => ({ from: dayStartIn(timeZone, day), to: dayStartIn(timeZone, addCalendarDays(day, 1)) })
  return signalReads(input, storageSignalsNeeded(fraudRulesOf(project.settings), ctx.fraudCheck !== undefined), span)
}

/** The verdict on the conversion, given what fraudReads asked the storage. */
export async function conversionFraud(ctx: ProjectContext, project: Project, input: ConversionFraudInput, reads: CreateReads): Promise<FraudVerdict> {
  const settings = fraudRulesOf(project.settings)
  const { affiliate } = input
  const hook = ctx.fraudCheck !== undefined
  const amount = input.type === 'purchase' && input.base && (hook || settings.amountAbove) ? input.base.converted : null
  const signals = await signalsOf(
    {
      type: input.type,
      affiliate,
      customerEmail: input.customerEmail,
      clickVisitor: input.clickVisitor,
      cardFingerprint: input.cardFingerprint,
      // Written out only for those that read it: the amountAbove rule and the program's fraudCheck.
      amount: amount && amount.format(),
    },
    reads,
  )
  // What the program's fraudCheck is shown, made only when there is one.
  const conversion = (): FraudCheckConversion => ({
    projectId: ctx.projectId,
    type: input.type,
    affiliate: { id: affiliate.id, email: affiliate.email, paypalEmail: affiliate.paypalEmail, status: affiliate.status, referralCode: affiliate.referralCode, partnerSlug: affiliate.partnerSlug },
    customerEmail: input.customerEmail,
    value: input.value.format(),
    currency: input.value.currency.code,
    baseValue: input.base ? input.base.value.format() : null,
    baseValueCurrency: input.base ? input.base.value.currency.code : input.value.currency.code,
    reference: input.reference,
    productId: input.productId,
    paymentProcessor: input.paymentProcessor,
  })
  return fraudVerdict({ conversion, signals, settings, currency: input.value.currency, amountMinor: amount && amount.minor }, ctx.fraudCheck)
}
