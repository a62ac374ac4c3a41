import { FrameReader, FrameTooLarge } from "./child/frames.mjs";
import { decodeChildMessage, type ChildFailCode, type ChildMessage } from "./protocol.js";

/** The answer that settles a pending request. */
export type AnswerMessage = Extract<ChildMessage, { t: "result" | "validated" | "invalid" | "fail" }>;

/** What the host learns from the bytes a child sent, in order; a violation is always the last event. */
export type ExchangeEvent =
  | { readonly kind: "ready" }
  | { readonly kind: "load-failed"; readonly code: ChildFailCode; readonly message: string }
  | { readonly kind: "call"; readonly id: string; readonly sub: number; readonly name: string; readonly args: unknown }
  | { readonly kind: "answer"; readonly answer: AnswerMessage }
  | { readonly kind: "violation"; readonly why: string };

export type Phase = "starting" | "idle" | "busy" | "closed";

/**
 * The host's side of the protocol as a pure state machine over the bytes a child sends (no process,
 * no timers), so every way of breaking it can be tested byte by byte. The rule: after ready, the
 * child speaks only while a request is pending, only about that request, and ends it with exactly
 * one answer. An answer is released only once everything that arrived with it has been read, so a
 * second answer in the same read turns the exchange into a violation and neither is delivered; one
 * that comes later is a violation of an idle exchange. After a violation, nothing more is read.
 */
export class Exchange {
  private state: Phase = "starting";
  private pending: { readonly id: string; readonly nested: boolean } | undefined;
  private readonly reader: FrameReader;

  constructor(maxFrameBytes: number) {
    this.reader = new FrameReader(maxFrameBytes);
  }

  get phase(): Phase {
    return this.state;
  }

  /** The host sends request `id`; `nested`: the child may ask for nested calls while it runs. */
  begin(id: string, nested: boolean): void {
    if (this.state !== "idle") throw new Error(`internal: a request was sent while the exchange was ${this.state}`);
    this.state = "busy";
    this.pending = { id, nested };
  }

  /** Stops reading (the child is gone or being killed). */
  close(): void {
    this.state = "closed";
    this.pending = undefined;
  }

  receive(chunk: Buffer): ExchangeEvent[] {
    if (this.state === "closed") return [];
    let texts: string[];
    try {
      texts = this.reader.push(chunk);
    } catch (thrown) {
      return [
        this.violation(
          thrown instanceof FrameTooLarge
            ? `sent a frame of ${thrown.bytes} bytes, over the ${thrown.maxBytes}-byte cap`
            : "sent a malformed frame",
        ),
      ];
    }
    const events: ExchangeEvent[] = [];
    let answer: AnswerMessage | undefined;
    for (const text of texts) {
      if (answer !== undefined) return [...events, this.violation("sent more after its answer")];
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return [...events, this.violation("sent a frame that is not JSON")];
      }
      const message = decodeChildMessage(parsed);
      if (typeof message === "string") return [...events, this.violation(`sent ${message}`)];
      const event = this.accept(message);
      if (event.kind === "violation") return [...events, event];
      if (event.kind === "answer") answer = event.answer;
      else events.push(event);
    }
    if (answer === undefined) return events;
    if (this.reader.pending > 0) return [...events, this.violation("sent more after its answer")];
    this.state = "idle";
    this.pending = undefined;
    return [...events, { kind: "answer", answer }];
  }

  private accept(message: ChildMessage): ExchangeEvent {
    if (this.state === "starting") {
      if (message.t === "ready") {
        this.state = "idle";
        return { kind: "ready" };
      }
      if (message.t === "load-failed") {
        this.state = "closed";
        return { kind: "load-failed", code: message.code, message: message.message };
      }
      return this.violation(`sent ${message.t} before it was ready`);
    }
    const pending = this.pending;
    if (pending === undefined) return this.violation(`sent ${message.t} while no request was pending`);
    if (message.t === "ready" || message.t === "load-failed" || message.id !== pending.id)
      return this.violation(`sent ${message.t} for a request that is not the pending one`);
    if (message.t === "call") {
      if (!pending.nested) return this.violation("asked for a nested call during validation");
      return { kind: "call", id: message.id, sub: message.sub, name: message.name, args: message.args };
    }
    return { kind: "answer", answer: message };
  }

  private violation(why: string): ExchangeEvent {
    this.close();
    return { kind: "violation", why };
  }
}
