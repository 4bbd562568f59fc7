import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({
    level,
    base: { service: "fashion-discovery" },
    redact: { paths: ["req.headers.authorization", "req.headers.cookie", "password", "*.password", "token"], remove: true },
  });
}

let root: Logger | undefined;
export function getLogger(): Logger {
  root ??= createLogger(process.env.NODE_ENV === "test" ? process.env.LOG_LEVEL ?? "silent" : undefined);
  return root;
}
