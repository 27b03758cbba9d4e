/**
 * The validation errors of one entry of the file, worded as 8.x's `Gitlab::Ci::Config::Entry`
 * validator words them: `<location> <attribute> <message>`, the attribute humanized
 * (`allow_failure` → `allow failure`), the whole downcased (ASCII only, as Ruby 2.3 did), and the
 * messages grouped by attribute in the order the attributes first failed (ActiveModel's errors).
 */
export class EntryErrors {
  readonly #byAttribute = new Map<string, string[]>();

  constructor(readonly location: string) {}

  /** Records that `attribute` (`config` for the entry itself) fails with `message`. */
  add(attribute: string, message: string): void {
    const messages = this.#byAttribute.get(attribute) ?? [];
    messages.push(message);
    this.#byAttribute.set(attribute, messages);
  }

  /** Whether nothing failed. */
  get valid(): boolean {
    return this.#byAttribute.size === 0;
  }

  /** The full messages, in 8.x's order. */
  messages(): string[] {
    const full: string[] = [];
    for (const [attribute, messages] of this.#byAttribute) {
      for (const message of messages) {
        full.push(asciiDowncase(`${this.location} ${attribute.replaceAll("_", " ")} ${message}`));
      }
    }
    return full;
  }
}

/** Lower-cases A-Z only, as Ruby 2.3's `String#downcase`. */
export function asciiDowncase(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** The location of an entry: its ancestors' keys and its own, joined by colons (`jobs:rspec:cache`). */
export function locationOf(...keys: string[]): string {
  return keys.join(":");
}
