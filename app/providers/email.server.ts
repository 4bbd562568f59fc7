/**
 * Email port. Local mode writes each message to DATA_DIR/outbox (a JSON record and an .html file
 * you can open in a browser); production sends through SMTP.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { AppConfig } from "~/config.server";

export interface EmailMessage {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface EmailPort {
  readonly kind: "outbox" | "smtp";
  deliver(message: EmailMessage, from: string): Promise<void>;
}

export function outboxDir(config: Pick<AppConfig, "DATA_DIR">): string {
  return path.join(config.DATA_DIR, "outbox");
}

export function createOutboxEmail(dir: string): EmailPort {
  return {
    kind: "outbox",
    async deliver(message, from) {
      await fs.mkdir(dir, { recursive: true });
      // Once per message id: a delivery job run again after a crash (the outbox row not yet marked
      // sent) finds the message already written. The .json is written last, so it marks a whole one.
      if ((await fs.readdir(dir)).some((f) => f.endsWith(`-${message.id}.json`))) return;
      const base = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${message.id}`);
      await fs.writeFile(`${base}.html`, message.html);
      await fs.writeFile(`${base}.json`, JSON.stringify({ from, ...message }, null, 2));
    },
  };
}

export function createEmail(config: AppConfig): EmailPort {
  if (config.EMAIL_ADAPTER === "smtp") {
    throw new Error("EMAIL_ADAPTER=smtp is not available in this version yet; use the outbox adapter (see README, Configuration)");
  }
  return createOutboxEmail(outboxDir(config));
}
