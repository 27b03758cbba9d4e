/** Help text of the `kiln` command and each subcommand, keyed by command ("" is the overview). */
export const USAGE: Record<string, string> = {
  "": `Usage: kiln <command> [options]

Commands:
  serve           start the server (migrates the database first)
  migrate         apply pending database migrations and exit
  user create     create a user account
  token create    mint a personal access token for a user (printed once)

Run "kiln <command> --help" for the options of a command.
Configuration comes from the environment: PORT, KILN_DATA_DIR, KILN_BASE_URL,
KILN_ROOT_PASSWORD, DATABASE_URL, KILN_SQLITE_SYNCHRONOUS, KILN_WORKERS,
KILN_RUNNER_WAIT_SECONDS, LOG_LEVEL.`,
  serve: `Usage: kiln serve

Starts the server on PORT (default 8080) with the database in KILN_DATA_DIR (default ./data)
or DATABASE_URL. On the first start it creates the administrator "root" with KILN_ROOT_PASSWORD,
or a generated password that is printed once. SIGTERM stops it gracefully.`,
  migrate: `Usage: kiln migrate

Applies pending database migrations to the configured database and exits.`,
  "user create": `Usage: kiln user create --username NAME --email EMAIL --name "FULL NAME" [--password PASSWORD] [--admin]

Creates an active account. Without --password, a password is generated and printed once.`,
  "token create": `Usage: kiln token create --user USERNAME [--name NAME] [--expires-at YYYY-MM-DD]

Mints a personal access token for the user and prints it once; it is stored only as a digest.`,
};
