// What a shape is (docs/api.md "Base path and shapes"): the rules it reads shared inputs by, its
// error form, and one codec per operation of the table (routes/operations.ts) turning requests
// into the program's input and results into its field names, records and lists. A shape that
// misses an operation does not compile.
import type * as v from 'valibot'
import type { ErrorInfo } from '../../server/errors.js'
import type { Codec, Operation, RouteDef, ShapeRules } from '../route.js'
import type { OPERATION_LIST } from '../routes/operations.js'

type AnyOperation = (typeof OPERATION_LIST)[number]

/** The codec an operation needs: typed by the input it takes and the result it returns. */
type CodecOf<O> = O extends Operation<string, any, string, any, any, infer In, infer Out> ? Codec<In, Out, any, any, any> : never

/** One codec per operation id. */
export type Codecs = { [O in AnyOperation as O['id']]: CodecOf<O> }

export interface Shape<C extends Codecs = Codecs> extends ShapeRules {
  /** As the OpenAPI document's title says it: `primary shape`. */
  title: string
  error(info: ErrorInfo): unknown
  errorSchema: v.GenericSchema
  codecs: C
}

/** A shape, its codecs' schema types kept for the typed client. */
export function defineShape<const C extends Codecs>(shape: Shape<C>): Shape<C> {
  return shape
}

/** The name of a shape the REST API serves: `primary` or its other. */
export type ShapeName = 'primary' | 'alternative'

/**
 * What the handler and the OpenAPI document read of a served shape, its routes made. Named
 * field by field: the published declarations then do not spell out every codec once more.
 */
export interface ServedShape {
  title: string
  error(info: ErrorInfo): unknown
  errorSchema: v.GenericSchema
  routes: readonly RouteDef[]
}
