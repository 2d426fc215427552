import type { MessageView } from "../../src/double/index.js";

/** A button or select of a message, as the double returns it. */
export interface Component {
  type?: number;
  custom_id?: string;
  label?: string;
  disabled?: boolean;
  options?: { value: string; label: string }[];
}

/** Every component of a message, row by row. */
export function components(view: MessageView | null | undefined): Component[] {
  return ((view?.components ?? []) as Array<{ components?: Component[] }>).flatMap(
    (row) => row.components ?? [],
  );
}

/** The custom_id of a component whose intent has this type (and whose custom_id contains `contains`). */
export function componentId(view: MessageView | null | undefined, type: string, contains = ""): string {
  const found = components(view).find(
    (c) => c.custom_id?.startsWith(`i1|${type}|`) && c.custom_id.includes(contains),
  );
  if (!found?.custom_id) throw new Error(`no ${type} ${contains} component on: ${view?.text ?? "(none)"}`);
  return found.custom_id;
}

/** The value of the select option whose label is `label`. */
export function optionValue(view: MessageView | null | undefined, label: string): string {
  const found = components(view)
    .flatMap((c) => c.options ?? [])
    .find((o) => o.label === label);
  if (!found) throw new Error(`no option ${label} on: ${view?.text ?? "(none)"}`);
  return found.value;
}
