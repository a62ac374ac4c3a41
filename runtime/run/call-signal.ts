/**
 * A call's AbortSignal, created only if the tool (or a nested call) asks for it: an AbortController
 * costs more than the rest of a small call's bookkeeping, and most tools never look at their signal.
 * Aborting before anyone asked records the reason; the signal handed out later is already aborted.
 * Nested calls in flight are aborted with their parent.
 */
export class CallSignal {
  private controller: AbortController | undefined;
  private abortedWith: { readonly reason: unknown } | undefined;
  private children: Set<CallSignal> | undefined;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  abort(reason: unknown): void {
    if (this.abortedWith !== undefined) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
    if (this.children !== undefined) for (const child of this.children) child.abort(reason);
  }

  /** Follow this signal while a nested call runs; the returned function stops following. */
  adopt(child: CallSignal): () => void {
    if (this.abortedWith !== undefined) child.abort(this.abortedWith.reason);
    (this.children ??= new Set()).add(child);
    return () => this.children!.delete(child);
  }
}
