import type { KeyboardEvent } from "react";

/**
 * Ctrl+Enter (⌘+Enter on a Mac) sends where a message is written (docs/dashboard.md#keyboard); Enter alone keeps
 * writing a new line. For a textarea's onKeyDown.
 * @example <textarea onKeyDown={sendsOnCtrlEnter(send)} />
 */
export const sendsOnCtrlEnter = (send: () => void) => (e: KeyboardEvent) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    send();
  }
};

/**
 * The same for a textarea inside a form: Ctrl+Enter (⌘+Enter) submits the form, as its submit button would (with the
 * form's own checks and disabled state).
 * @example <textarea onKeyDown={submitsOnCtrlEnter} />
 */
export function submitsOnCtrlEnter(e: KeyboardEvent<HTMLTextAreaElement>) {
  if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
  e.preventDefault();
  const submit = e.currentTarget.form?.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (submit && !submit.disabled) e.currentTarget.form?.requestSubmit(submit);
}
