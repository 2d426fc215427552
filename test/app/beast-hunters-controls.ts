import { expect } from "vitest";
import type { Intent } from "../../src/app/intent.js";
import type { MessageView, ModalView } from "../../src/app/views.js";
import { CUSTOM_ID_MAX, encodeIntent } from "../../src/discord/custom-id.js";

/**
 * Discord's limits on a view, checked on the view itself (the renderer would silently cut what
 * does not fit, so a check of the rendered message could not fail): at most 5 rows; a row is up
 * to 5 buttons or exactly one select of 1–25 distinct options whose values fit 100 characters;
 * every custom_id (the encoded intent, with the select's field) fits 100 characters.
 */
export function expectWithinDiscordLimits(view: MessageView): void {
  const rows = view.rows ?? [];
  expect(rows.length, "rows").toBeLessThanOrEqual(5);
  const ids = rows
    .flat()
    .map((c) => encodeIntent(c.kind === "select" ? { ...c.intent, _field: c.field } : c.intent));
  expect(new Set(ids).size, `custom_ids on one message are distinct: ${ids.join(" ")}`).toBe(ids.length);
  for (const row of rows) {
    expect(row.length, "components in a row").toBeGreaterThan(0);
    const selects = row.filter((c) => c.kind === "select");
    if (selects.length > 0) {
      expect(row, "a select has its row to itself").toHaveLength(1);
    } else {
      expect(row.length, "buttons in a row").toBeLessThanOrEqual(5);
    }
    for (const c of row) {
      const id = encodeIntent(c.kind === "select" ? { ...c.intent, _field: c.field } : c.intent);
      expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
      if (c.kind === "button") {
        expect(c.label.length, c.label).toBeLessThanOrEqual(80);
        continue;
      }
      expect(c.options.length, c.placeholder).toBeGreaterThan(0);
      expect(c.options.length, c.placeholder).toBeLessThanOrEqual(25);
      const values = c.options.map((o) => o.value);
      expect(new Set(values).size, "distinct option values").toBe(values.length);
      for (const value of values) expect(value.length, value).toBeLessThanOrEqual(100);
    }
  }
}

export function expectModalWithinDiscordLimits(modal: ModalView): void {
  expect(encodeIntent(modal.intent).length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
  expect(modal.title.length).toBeLessThanOrEqual(45);
  expect(modal.inputs.length).toBeGreaterThan(0);
  expect(modal.inputs.length).toBeLessThanOrEqual(5);
  for (const input of modal.inputs) {
    expect(input.label.length, input.label).toBeLessThanOrEqual(45);
    expect((input.placeholder ?? "").length, input.placeholder).toBeLessThanOrEqual(100);
  }
}

/** Every intent a view's controls carry (buttons as they are, selects without a value). */
export function controlIntents(view: MessageView | undefined): Intent[] {
  return (view?.rows ?? []).flat().map((c) => c.intent);
}

/** The intent of the button of this type (and, if given, this `pick`), as a click sends it. */
export function clickIntent(view: MessageView | undefined, type: string, pick?: string): Intent {
  for (const c of (view?.rows ?? []).flat()) {
    if (c.kind !== "button" || c.intent.type !== type) continue;
    if (pick === undefined || (c.intent as Intent).pick === pick) return c.intent;
  }
  throw new Error(`no ${type} ${pick ?? ""} button among ${JSON.stringify(controlIntents(view))}`);
}

/** The intent a select sends when the option with this value is chosen. */
export function chooseIntent(view: MessageView | undefined, value: string): Intent {
  for (const c of (view?.rows ?? []).flat()) {
    if (c.kind === "select" && c.options.some((o) => o.value === value))
      return { ...c.intent, [c.field]: value };
  }
  throw new Error(`no select offers ${value}: ${JSON.stringify(optionValues(view))}`);
}

/** The option values of every select of a view. */
export function optionValues(view: MessageView | undefined): string[] {
  return (view?.rows ?? []).flat().flatMap((c) => (c.kind === "select" ? c.options.map((o) => o.value) : []));
}

/** The label of the option with this value. */
export function optionLabel(view: MessageView | undefined, value: string): string {
  for (const c of (view?.rows ?? []).flat()) {
    const found = c.kind === "select" ? c.options.find((o) => o.value === value) : undefined;
    if (found) return found.label;
  }
  throw new Error(`no option ${value}`);
}
