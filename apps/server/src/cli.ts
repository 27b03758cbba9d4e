import { parseArgs } from "node:util";
import { type Caller, createCaller, generateToken, registrationToken } from "@kiln/services";
import { type Backend, openBackend, startServer } from "./app.js";
import { ConfigError, readConfig } from "./config.js";
import { describeFailure } from "./failure.js";
import { createLogger, exitAfterLogs } from "./logger.js";
import { runnerCommand } from "./runner/index.js";
import { USAGE } from "./usage.js";

/** Where a command writes: the CLI's own output, and its error line. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

type Handler = (args: string[], io: Io) => Promise<number>;

const commands: Record<string, Handler> = {
  serve: async (_args, io) => {
    const config = readConfig(process.env);
    const log = createLogger(config.logLevel);
    const server = await startServer(config, log);
    const shutdown = (signal: string) => {
      log.info({ signal }, "stopping");
      server.stop().then(
        () => {
          log.info("stopped");
          exitAfterLogs(log, 0);
        },
        (error: unknown) => {
          io.err(`kiln: stop failed: ${(error as Error).message}`);
          exitAfterLogs(log, 1);
        },
      );
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
    return new Promise<number>(() => {}); // runs until a signal
  },

  migrate: async (_args, io) => {
    const { database } = await openBackend(readConfig(process.env));
    await database.close();
    io.out("migrations applied");
    return 0;
  },

  "user create": async (args, io) => {
    const { values } = parseArgs({
      args,
      options: {
        username: { type: "string" },
        email: { type: "string" },
        name: { type: "string" },
        password: { type: "string" },
        admin: { type: "boolean", default: false },
      },
    });
    for (const required of ["username", "email", "name"] as const) {
      if (!values[required]) throw new ConfigError(`--${required} is required (see kiln user create --help)`);
    }
    return withSystemCaller(async (system, generate) => {
      const password = values.password ?? generate();
      const user = await system.users.create({
        username: values.username as string,
        email: values.email as string,
        name: values.name as string,
        password,
        admin: values.admin,
      });
      io.out(`created user ${user.username} (id ${user.id})`);
      if (!values.password) io.out(`password: ${password}`);
      return 0;
    });
  },

  "user disable-two-factor": async (args, io) => {
    const { values } = parseArgs({ args, options: { user: { type: "string" } } });
    if (!values.user) throw new ConfigError("--user is required (see kiln user disable-two-factor --help)");
    const username = values.user;
    return withSystemCaller(async (system) => {
      await system.twoFactor.disableForUser({ username });
      io.out(
        `disabled two-factor authentication for ${username}: their authenticator secret and recovery codes are deleted, and they sign in with their password alone until they enrol again; their web sessions and tokens are unchanged`,
      );
      return 0;
    });
  },

  runner: (args, io) => runnerCommand(args, io),

  "runner token": (_args, io) =>
    withBackend(async ({ runtime }) => {
      io.out(await registrationToken(runtime));
      return 0;
    }),

  "token create": async (args, io) => {
    const { values } = parseArgs({
      args,
      options: {
        user: { type: "string" },
        name: { type: "string", default: "cli" },
        "expires-at": { type: "string" },
      },
    });
    if (!values.user) throw new ConfigError("--user is required (see kiln token create --help)");
    return withSystemCaller(async (system) => {
      const token = await system.tokens.createPersonal({
        username: values.user as string,
        name: values.name,
        ...(values["expires-at"] ? { expires_at: values["expires-at"] } : {}),
      });
      io.out(token.token);
      return 0;
    });
  },
};

/** Runs operator work on the configured database, then closes it. */
async function withBackend(work: (backend: Backend) => Promise<number>): Promise<number> {
  const backend = await openBackend(readConfig(process.env));
  try {
    return await work(backend);
  } finally {
    await backend.database.close();
  }
}

/** Runs operator work with administrator rights on the configured database, then closes it. */
function withSystemCaller(
  work: (system: Caller, generatePassword: () => string) => Promise<number>,
): Promise<number> {
  return withBackend(({ runtime }) =>
    work(createCaller({ runtime, actor: null, system: true }), () => generateToken(20)),
  );
}

/** Runs the `kiln` command line; resolves to the exit code. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const twoWord = argv.length >= 2 ? `${argv[0]} ${argv[1]}` : "";
  const name = twoWord in commands ? twoWord : (argv[0] ?? "");
  const rest = argv.slice(name.split(" ").length);
  if (name === "" || name === "--help" || name === "-h" || name === "help") {
    io.out(USAGE[""] as string);
    return name === "" ? 1 : 0;
  }
  const command = commands[name];
  if (!command) {
    io.err(`kiln: unknown command "${argv.join(" ")}"\n\n${USAGE[""]}`);
    return 1;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(USAGE[name] as string);
    return 0;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    io.err(`kiln: ${describeFailure(error)}`);
    return 1;
  }
}
