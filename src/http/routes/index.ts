// The shapes the REST API serves (docs/api.md "Base path and shapes"), one entry each: the only
// place outside a shape's own files that names it. affiliate-kit/http publishes this module's
// named exports as they are: each shape's route table and every request schema by name
// (`schemas`). The handler and the OpenAPI document read the shapes from its default export.
import type { RouteDef } from '../route.js'
import * as shared from '../schemas.js'
import { alternativeShape } from '../shapes/alternative.js'
import * as alternativeRequests from '../shapes/alternative-requests.js'
import { primaryShape } from '../shapes/primary.js'
import type { ServedShape, ShapeName } from '../shapes/shape.js'
import { shapeRoutes } from './shape-routes.js'

export const primaryRoutes = shapeRoutes(primaryShape)
/** Typed as routes only: no typed client reads its schema types, and spelled out they double the published declarations. */
export const alternativeRoutes: readonly RouteDef[] = shapeRoutes(alternativeShape)

/** Every REST request schema by name: those the shapes share (schemas.ts) and each shape's own. */
export const schemas = Object.freeze({ ...shared, ...alternativeRequests })

/**
 * The shapes a handler serves (createHandler option `shape`), each with its routes. The default
 * export, which `export *` does not publish: affiliate-kit/http re-exports the named ones only.
 * Its declared type names what is read of it, so that the published declarations do not spell
 * out every codec's schemas once more for a `keyof`.
 */
const SHAPES: Readonly<Record<ShapeName, ServedShape>> = {
  primary: { ...primaryShape, routes: primaryRoutes as readonly RouteDef[] },
  alternative: { ...alternativeShape, routes: alternativeRoutes },
}
export default SHAPES
