import pg from "pg";

/**
 * One connection of its own, opened (for the migration runner, the start's checks, the test databases). A connection
 * that fails on the client's side after the server accepted it (no password to give, a TLS error) is closed here:
 * node-postgres leaves it open, and the server then waits a minute for the password (authentication_timeout),
 * holding a connection slot and any DROP DATABASE of that database.
 */
export async function openClient(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}
