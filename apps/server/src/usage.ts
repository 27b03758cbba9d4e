/** Help text of the `kiln` command and each subcommand, keyed by command ("" is the overview). */
export const USAGE: Record<string, string> = {
  "": `Usage: kiln <command> [options]

Commands:
  serve           start the server (migrates the database first)
  migrate         apply pending database migrations and exit
  user create     create a user account
  user disable-two-factor
                  turn off a user's two-factor authentication (lost device and recovery codes)
  token create    mint a personal access token for a user (printed once)
  runner          run CI builds for a Kiln server (a shell executor; any machine that reaches it)
  runner token    print the instance's runner registration token (on the server's machine)

Run "kiln <command> --help" for the options of a command.
Configuration comes from the environment: PORT, KILN_DATA_DIR, KILN_BASE_URL,
KILN_ROOT_PASSWORD, DATABASE_URL, KILN_SQLITE_SYNCHRONOUS, KILN_WORKERS,
KILN_EMBEDDED_RUNNER, KILN_SIGN_IN_THROTTLE, KILN_RUNNER_WAIT_SECONDS, KILN_CI_SWEEP_SECONDS, KILN_CI_STUCK_SECONDS, LOG_LEVEL.`,
  serve: `Usage: kiln serve

Starts the server on PORT (default 8080) with the database in KILN_DATA_DIR (default ./data)
or DATABASE_URL. On the first start it creates the administrator "root" with KILN_ROOT_PASSWORD,
or a generated password that is printed once. SIGTERM stops it gracefully.`,
  migrate: `Usage: kiln migrate

Applies pending database migrations to the configured database and exits.`,
  "user create": `Usage: kiln user create --username NAME --email EMAIL --name "FULL NAME" [--password PASSWORD] [--admin]

Creates an active account. Without --password, a password is generated and printed once.`,
  "user disable-two-factor": `Usage: kiln user disable-two-factor --user USERNAME

Turns off the two-factor authentication of a user who lost both their authenticator and their
recovery codes, as an administrator's "Disable 2FA" does: their secret and recovery codes are
deleted, and they sign in with their password alone until they enrol again. Their web sessions
and tokens are left as they are. Fails for an unknown user or one without two-factor
authentication. Works on the server's database as its environment names it (KILN_DATA_DIR or
DATABASE_URL), while the server runs or not.`,
  "token create": `Usage: kiln token create --user USERNAME [--name NAME] [--expires-at YYYY-MM-DD]

Mints a personal access token for the user and prints it once; it is stored only as a digest.`,
  "runner token": `Usage: kiln runner token

Prints the registration token of shared runners (the instance's, made on first use), read from
the server's database as the server's environment names it (KILN_DATA_DIR or DATABASE_URL).
Give it to kiln runner --registration-token on the machines that run builds.`,
  runner: `Usage: kiln runner --url URL --registration-token TOKEN [--concurrency N] [--builds-dir DIR] [--once]
                   [--description TEXT] [--tag-list a,b] [--output-limit KB] [--token RUNNER_TOKEN]

Registers a runner with the server at URL and runs its CI builds with bash, as this OS user, in
the builds dir (default ./builds). The registration token is the instance's (kiln runner token,
on the server's machine) or a project's runners_token; KILN_RUNNER_REGISTRATION_TOKEN may hold it
instead of the command line. Once registered, the runner's token is
saved in DIR/kiln-runner.json (mode 0600) and later starts with the same --url and --builds-dir
reuse it: no registration token needed. --token uses a runner token as is.

  --concurrency N    builds at once (default 1)
  --once             run one build, then exit
  --output-limit KB  trace kept per build (default 4096); past it the output is dropped, with a note

SIGINT or SIGTERM stops taking builds and waits for the running ones; a second one stops them.
The server being away (a restart) is waited for, never a reason to exit.`,
};
