// The routes a shape makes of the operations table: one per operation (routes/operations.ts), in
// the table's order, each with the shape's codec, its schema types kept for the typed client.
import type { Method } from '../../server/router.js'
import { operationRoute, type Codec, type ObjectSchema, type Operation, type Responses, type RouteDef } from '../route.js'
import type { Codecs, Shape } from '../shapes/shape.js'
import { OPERATION_LIST } from './operations.js'

type Operations = typeof OPERATION_LIST

/** A schema member of an operation or codec (`query`, `body`), or undefined without one. */
type Member<T, K extends 'query' | 'body'> = T extends { [P in K]?: infer S } ? ([Exclude<S, undefined>] extends [never] ? undefined : Exclude<S, undefined>) : undefined
type Either<Own, Shared> = Own extends ObjectSchema ? Own : Shared extends ObjectSchema ? Shared : undefined

/** The route an operation makes in a shape, its schema types kept. */
type RouteIn<O, C> = O extends { id: infer Id; method: infer M extends Method; path: infer P extends string }
  ? Id extends keyof C
    ? RouteDef<M, P, Either<Member<C[Id], 'query'>, Member<O, 'query'>>, Either<Member<C[Id], 'body'>, Member<O, 'body'>>, C[Id] extends { responses: infer R extends Responses } ? R : never>
    : never
  : never

type MapRoutes<T extends readonly unknown[], C> = { [I in keyof T]: RouteIn<T[I], C> }

/** A shape's routes, in the table's order. */
export type ShapeRoutes<C> = MapRoutes<Operations, C>

/** The routes a shape serves: one per operation, in the table's order. */
export function shapeRoutes<C extends Codecs>(shape: Shape<C>): ShapeRoutes<C> {
  const codecs = shape.codecs as Record<string, Codec>
  return OPERATION_LIST.map((operation) => operationRoute(operation as Operation, codecs[operation.id]!, shape)) as unknown as ShapeRoutes<C>
}
