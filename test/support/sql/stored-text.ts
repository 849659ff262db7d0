// Every text a SQL storage holds, read from the tables themselves: each text and JSON column of
// every table of the schema (information_schema), for the erasure and tax id tests.
type Query = (text: string) => Promise<Array<Record<string, unknown>>>

export async function sqlStoredText(query: Query, schema: string): Promise<string> {
  const columns = await query(
    `SELECT c.relname AS table_name, a.attname AS column_name FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = '${schema}' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
       AND a.atttypid IN ('text'::regtype, 'jsonb'::regtype, 'json'::regtype, 'character varying'::regtype, 'bytea'::regtype)
     ORDER BY c.relname, a.attname`,
  )
  const texts: string[] = []
  for (const { table_name: table, column_name: column } of columns) {
    const rows = await query(`SELECT "${String(column)}"::text AS value FROM "${schema}"."${String(table)}" WHERE "${String(column)}" IS NOT NULL`)
    for (const row of rows) texts.push(`${String(table)}.${String(column)}: ${String(row.value)}`)
  }
  return texts.join('\n')
}

/** sqlStoredText of a PostgreSQL schema, read over a connection of its own to DATABASE_URL. */
export async function postgresStoredText(databaseUrl: string, schema: string): Promise<string> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return await sqlStoredText(async (text) => (await client.query(text)).rows, schema)
  } finally {
    await client.end()
  }
}
