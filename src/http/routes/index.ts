// The REST API's one table: each shape's routes, its error form and its title.
import { alternativeRoutes } from '../alternative/index.js'
import * as AR from '../alternative/response-schemas.js'
import { primaryRoutes } from '../primary/index.js'
import * as R from '../response-schemas.js'
import type { RouteDef } from '../route.js'
import { alternativeError } from '../shapes/alternative.js'
import { primaryError } from '../shapes/primary.js'
import type { ErrorInfo } from '../../server/errors.js'
import type * as v from 'valibot'

export interface ShapeTable {
  routes: readonly RouteDef[]
  error: (info: ErrorInfo) => unknown
  errorSchema: v.GenericSchema
  title: string
}

export const SHAPES: Record<'primary' | 'alternative', ShapeTable> = {
  primary: { routes: primaryRoutes, error: primaryError, errorSchema: R.errorBody, title: 'primary shape' },
  alternative: { routes: alternativeRoutes, error: alternativeError, errorSchema: AR.errorBody, title: 'alternative shape' },
}
