/**
 * A labelled text input of the storefront's forms (`.field`): the label's text above the input; every
 * other prop goes to the input.
 */
import type { InputHTMLAttributes } from "react";

export function TextField({ label, ...input }: { label: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "className">) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input className="field__input" {...input} />
    </label>
  );
}
