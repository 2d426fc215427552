import { ApiError, type ErrorPath, FormErrors } from "./errors.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
/** Discord counts message limits in UTF-16 code units ("2000 UTF-16 characters"). */
const len = (v: unknown): number => (typeof v === "string" ? v.length : 0);

export const MessageFlags = {
  SuppressEmbeds: 1 << 2,
  Ephemeral: 1 << 6,
  Loading: 1 << 7,
  SuppressNotifications: 1 << 12,
  IsComponentsV2: 1 << 15,
} as const;

export interface Mentions {
  everyone: boolean;
  users: string[];
  roles: string[];
}

function maxLength(errors: FormErrors, path: ErrorPath, value: unknown, max: number, min = 0): void {
  if (value === undefined || value === null) {
    if (min > 0) errors.add(path, "BASE_TYPE_REQUIRED", "This field is required");
    return;
  }
  if (typeof value !== "string") {
    errors.add(path, "STRING_TYPE_CONVERT", "Could not interpret value as string.");
    return;
  }
  if (value.length > max) errors.add(path, "BASE_TYPE_MAX_LENGTH", `Must be ${max} or fewer in length.`);
  else if (value.length < min) errors.add(path, "BASE_TYPE_MIN_LENGTH", `Must be ${min} or more in length.`);
}

function arrayOf(errors: FormErrors, path: ErrorPath, value: unknown, min: number, max: number): unknown[] {
  if (value === undefined || value === null) {
    if (min > 0) errors.add(path, "BASE_TYPE_REQUIRED", "This field is required");
    return [];
  }
  if (!Array.isArray(value)) {
    errors.add(path, "BASE_TYPE_ARRAY", "Must be an array.");
    return [];
  }
  if (value.length < min || value.length > max) {
    errors.add(path, "BASE_TYPE_BAD_LENGTH", `Must be between ${min} and ${max} in length.`);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Embeds

/** Characters of one embed that count toward the 6000 total. */
export function embedSize(embed: Obj): number {
  let n = len(embed.title) + len(embed.description);
  if (isObj(embed.footer)) n += len(embed.footer.text);
  if (isObj(embed.author)) n += len(embed.author.name);
  if (Array.isArray(embed.fields)) {
    for (const f of embed.fields) if (isObj(f)) n += len(f.name) + len(f.value);
  }
  return n;
}

function checkEmbeds(errors: FormErrors, path: ErrorPath, embeds: unknown): void {
  const list = arrayOf(errors, path, embeds, 0, 10);
  let total = 0;
  list.forEach((embed, i) => {
    const p = [...path, i];
    if (!isObj(embed)) {
      errors.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    maxLength(errors, [...p, "title"], embed.title, 256);
    maxLength(errors, [...p, "description"], embed.description, 4096);
    if (embed.footer !== undefined && embed.footer !== null) {
      if (!isObj(embed.footer)) errors.add([...p, "footer"], "MODEL_TYPE_CONVERT", "Must be an object");
      else maxLength(errors, [...p, "footer", "text"], embed.footer.text, 2048, 1);
    }
    if (embed.author !== undefined && embed.author !== null) {
      if (!isObj(embed.author)) errors.add([...p, "author"], "MODEL_TYPE_CONVERT", "Must be an object");
      else maxLength(errors, [...p, "author", "name"], embed.author.name, 256, 1);
    }
    const fields = arrayOf(errors, [...p, "fields"], embed.fields, 0, 25);
    fields.forEach((field, j) => {
      const fp = [...p, "fields", j];
      if (!isObj(field)) {
        errors.add(fp, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
        return;
      }
      maxLength(errors, [...fp, "name"], field.name, 256, 1);
      maxLength(errors, [...fp, "value"], field.value, 1024, 1);
    });
    if (embed.color !== undefined && embed.color !== null) {
      const c = embed.color;
      if (typeof c !== "number" || !Number.isInteger(c) || c < 0 || c > 0xffffff) {
        errors.add([...p, "color"], "NUMBER_TYPE_MAX", "int value should be less than or equal to 16777215.");
      }
    }
    total += embedSize(embed);
  });
  if (total > 6000)
    errors.add(path, "MAX_EMBED_SIZE_EXCEEDED", `Embed size exceeds maximum size of 6000 (${total})`);
}

// ---------------------------------------------------------------------------------------------
// Message components

const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);

function checkCustomId(errors: FormErrors, path: ErrorPath, value: unknown, ids: Set<string>): void {
  maxLength(errors, path, value, 100, 1);
  if (typeof value === "string") {
    if (ids.has(value))
      errors.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", `Component custom id cannot be duplicated`);
    ids.add(value);
  }
}

function checkButton(errors: FormErrors, path: ErrorPath, button: Obj, ids: Set<string>): void {
  const style = button.style;
  if (typeof style !== "number" || style < 1 || style > 6) {
    errors.add([...path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.");
    return;
  }
  if (style === 5) {
    if (typeof button.url !== "string")
      errors.add([...path, "url"], "BASE_TYPE_REQUIRED", "This field is required");
    if (button.custom_id !== undefined) {
      errors.add([...path, "custom_id"], "BUTTON_LINK_CUSTOM_ID", "Link buttons cannot have a custom_id");
    }
  } else if (style === 6) {
    if (typeof button.sku_id !== "string") errors.add([...path, "sku_id"], "BASE_TYPE_REQUIRED", "Required");
  } else {
    checkCustomId(errors, [...path, "custom_id"], button.custom_id, ids);
    if (button.url !== undefined)
      errors.add([...path, "url"], "BUTTON_URL_INVALID", "Only link buttons have a url");
  }
  if (style !== 6) {
    maxLength(errors, [...path, "label"], button.label, 80);
    if (!button.label && !button.emoji) {
      errors.add(
        [...path, "label"],
        "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
        "A label or an emoji is required",
      );
    }
  }
}

function checkSelect(
  errors: FormErrors,
  path: ErrorPath,
  select: Obj,
  ids: Set<string>,
  inModal: boolean,
): void {
  checkCustomId(errors, [...path, "custom_id"], select.custom_id, ids);
  maxLength(errors, [...path, "placeholder"], select.placeholder, 150);
  const min = select.min_values;
  const max = select.max_values;
  if (min !== undefined && (typeof min !== "number" || min < 0 || min > 25)) {
    errors.add([...path, "min_values"], "NUMBER_TYPE_MIN_MAX", "Must be between 0 and 25.");
  }
  if (max !== undefined && (typeof max !== "number" || max < 1 || max > 25)) {
    errors.add([...path, "max_values"], "NUMBER_TYPE_MIN_MAX", "Must be between 1 and 25.");
  }
  if (typeof min === "number" && typeof max === "number" && min > max) {
    errors.add(
      [...path, "min_values"],
      "SELECT_COMPONENT_MIN_MAX_INVALID",
      "min_values must not exceed max_values",
    );
  }
  if (select.type === 3) {
    const options = arrayOf(errors, [...path, "options"], select.options, 1, 25);
    const values = new Set<string>();
    options.forEach((option, i) => {
      const op = [...path, "options", i];
      if (!isObj(option)) {
        errors.add(op, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
        return;
      }
      maxLength(errors, [...op, "label"], option.label, 100, 1);
      maxLength(errors, [...op, "value"], option.value, 100, 1);
      maxLength(errors, [...op, "description"], option.description, 100);
      if (typeof option.value === "string") {
        if (values.has(option.value)) {
          errors.add(
            [...op, "value"],
            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
            "Option values must be unique",
          );
        }
        values.add(option.value);
      }
    });
    if (typeof max === "number" && max > options.length) {
      errors.add(
        [...path, "max_values"],
        "SELECT_COMPONENT_MAX_VALUES_INVALID",
        "max_values exceeds options",
      );
    }
  }
  if (!inModal && select.required !== undefined) {
    errors.add([...path, "required"], "BASE_TYPE_INVALID", "required is only allowed in modals");
  }
}

function checkActionRow(errors: FormErrors, path: ErrorPath, row: Obj, ids: Set<string>): number {
  const children = arrayOf(errors, [...path, "components"], row.components, 1, 5);
  let count = 1;
  const types = children.map((c) => (isObj(c) ? c.type : undefined));
  const selects = types.filter((t) => SELECT_TYPES.has(t as number)).length;
  if (selects > 0 && children.length > 1) {
    errors.add(
      [...path, "components"],
      "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
      "A select menu must be alone in its row",
    );
  }
  children.forEach((child, i) => {
    const cp = [...path, "components", i];
    count += 1;
    if (!isObj(child)) {
      errors.add(cp, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    if (child.type === 2) checkButton(errors, cp, child, ids);
    else if (SELECT_TYPES.has(child.type as number)) checkSelect(errors, cp, child, ids, false);
    else
      errors.add(
        [...cp, "type"],
        "UNION_TYPE_CHOICES",
        `Component type ${String(child.type)} not allowed in a row`,
      );
  });
  return count;
}

interface V2Budget {
  count: number;
  text: number;
}

function checkV2Component(
  errors: FormErrors,
  path: ErrorPath,
  c: unknown,
  ids: Set<string>,
  budget: V2Budget,
): void {
  if (!isObj(c)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return;
  }
  budget.count += 1;
  switch (c.type) {
    case 1:
      // checkActionRow counts the row itself too, which was counted above.
      budget.count += checkActionRow(errors, path, c, ids) - 1;
      break;
    case 9: {
      const texts = arrayOf(errors, [...path, "components"], c.components, 1, 3);
      texts.forEach((t, i) => {
        checkV2Component(errors, [...path, "components", i], t, ids, budget);
      });
      if (isObj(c.accessory)) {
        if (c.accessory.type === 2) {
          budget.count += 1;
          checkButton(errors, [...path, "accessory"], c.accessory, ids);
        } else checkV2Component(errors, [...path, "accessory"], c.accessory, ids, budget);
      } else errors.add([...path, "accessory"], "BASE_TYPE_REQUIRED", "This field is required");
      break;
    }
    case 10:
      maxLength(errors, [...path, "content"], c.content, 4000, 1);
      budget.text += len(c.content);
      break;
    case 11:
    case 12:
    case 13:
    case 14:
      break;
    case 17: {
      const children = arrayOf(errors, [...path, "components"], c.components, 1, 40);
      children.forEach((child, i) => {
        checkV2Component(errors, [...path, "components", i], child, ids, budget);
      });
      break;
    }
    default:
      errors.add(
        [...path, "type"],
        "UNION_TYPE_CHOICES",
        `Component type ${String(c.type)} not allowed here`,
      );
  }
}

function checkComponents(errors: FormErrors, path: ErrorPath, components: unknown, v2: boolean): void {
  const ids = new Set<string>();
  if (v2) {
    const list = arrayOf(errors, path, components, 0, 40);
    const budget: V2Budget = { count: 0, text: 0 };
    list.forEach((c, i) => {
      checkV2Component(errors, [...path, i], c, ids, budget);
    });
    if (budget.count > 40)
      errors.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer components in total.");
    if (budget.text > 4000) errors.add(path, "BASE_TYPE_MAX_LENGTH", "Text displays exceed 4000 characters.");
    return;
  }
  const rows = arrayOf(errors, path, components, 0, 5);
  rows.forEach((row, i) => {
    const p = [...path, i];
    if (!isObj(row) || row.type !== 1) {
      errors.add([...p, "type"], "UNION_TYPE_CHOICES", "Top-level components must be action rows (type 1)");
      return;
    }
    checkActionRow(errors, p, row, ids);
  });
}

// ---------------------------------------------------------------------------------------------
// Allowed mentions

function checkAllowedMentions(errors: FormErrors, path: ErrorPath, am: unknown): void {
  if (am === undefined || am === null) return;
  if (!isObj(am)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return;
  }
  const parse = am.parse === undefined ? [] : am.parse;
  if (!Array.isArray(parse)) {
    errors.add([...path, "parse"], "BASE_TYPE_ARRAY", "Must be an array.");
    return;
  }
  parse.forEach((v, i) => {
    if (v !== "users" && v !== "roles" && v !== "everyone") {
      errors.add(
        [...path, "parse", i],
        "BASE_TYPE_CHOICES",
        `Value must be one of {"roles", "users", "everyone"}.`,
      );
    }
  });
  for (const kind of ["users", "roles"] as const) {
    const list = am[kind];
    if (list === undefined) continue;
    arrayOf(errors, [...path, kind], list, 0, 100);
    if (parse.includes(kind) && Array.isArray(list) && list.length > 0) {
      errors.add(
        [...path, "parse"],
        "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
        `parse:["${kind}"] and ${kind}: [ids] are mutually exclusive.`,
      );
    }
  }
}

/** Who this content would actually ping under `allowed_mentions` (absent = Discord's default: parse all). */
export function computeMentions(content: unknown, allowedMentions: unknown): Mentions {
  const text = typeof content === "string" ? content : "";
  const everyoneMentioned = /@(everyone|here)\b/.test(text);
  const users = [...new Set([...text.matchAll(/<@!?(\d{5,20})>/g)].map((m) => m[1] as string))];
  const roles = [...new Set([...text.matchAll(/<@&(\d{5,20})>/g)].map((m) => m[1] as string))];
  if (!isObj(allowedMentions)) return { everyone: everyoneMentioned, users, roles };
  const parse = Array.isArray(allowedMentions.parse) ? allowedMentions.parse : [];
  const allowUsers = Array.isArray(allowedMentions.users) ? (allowedMentions.users as string[]) : [];
  const allowRoles = Array.isArray(allowedMentions.roles) ? (allowedMentions.roles as string[]) : [];
  return {
    everyone: everyoneMentioned && parse.includes("everyone"),
    users: parse.includes("users") ? users : users.filter((u) => allowUsers.includes(u)),
    roles: parse.includes("roles") ? roles : roles.filter((r) => allowRoles.includes(r)),
  };
}

// ---------------------------------------------------------------------------------------------
// Whole payloads

export interface MessageCheckOptions {
  /** Creating (true) must carry something; edits may be partial. */
  create: boolean;
  /** Interaction responses and followups may carry the EPHEMERAL flag. */
  allowEphemeral: boolean;
}

/** Adds every problem of a message body to `errors` (paths prefixed by `path`). */
export function checkMessage(
  errors: FormErrors,
  path: ErrorPath,
  body: unknown,
  opts: MessageCheckOptions,
): void {
  if (!isObj(body)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return;
  }
  const flags = typeof body.flags === "number" ? body.flags : 0;
  const v2 = (flags & MessageFlags.IsComponentsV2) !== 0;
  maxLength(errors, [...path, "content"], body.content, 2000);
  checkEmbeds(errors, [...path, "embeds"], body.embeds);
  checkComponents(errors, [...path, "components"], body.components, v2);
  checkAllowedMentions(errors, [...path, "allowed_mentions"], body.allowed_mentions);
  if (v2 && (len(body.content) > 0 || (Array.isArray(body.embeds) && body.embeds.length > 0))) {
    errors.add(
      [...path, "content"],
      "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
      "V2 messages use components only",
    );
  }
  if (!opts.allowEphemeral && (flags & MessageFlags.Ephemeral) !== 0) {
    errors.add(
      [...path, "flags"],
      "MESSAGE_FLAGS_INVALID",
      "The ephemeral flag is only for interaction responses",
    );
  }
}

export function isEmptyMessage(body: Obj): boolean {
  const hasContent = typeof body.content === "string" && body.content.trim().length > 0;
  const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
  const hasComponents = Array.isArray(body.components) && body.components.length > 0;
  const hasFiles = Array.isArray(body.attachments) && body.attachments.length > 0;
  const hasPoll = isObj(body.poll);
  const hasStickers = Array.isArray(body.sticker_ids) && body.sticker_ids.length > 0;
  return !(hasContent || hasEmbeds || hasComponents || hasFiles || hasPoll || hasStickers);
}

/** Validates a message body as a whole request; throws ApiError like Discord. */
export function validateMessageBody(body: unknown, opts: MessageCheckOptions): Obj {
  const errors = new FormErrors();
  checkMessage(errors, [], body, opts);
  errors.throwIfAny();
  const obj = body as Obj;
  if (opts.create && isEmptyMessage(obj)) throw new ApiError(400, 50006, "Cannot send an empty message");
  return obj;
}

// ---------------------------------------------------------------------------------------------
// Modals and autocomplete

function checkTextInput(
  errors: FormErrors,
  path: ErrorPath,
  input: Obj,
  ids: Set<string>,
  legacy: boolean,
): void {
  checkCustomId(errors, [...path, "custom_id"], input.custom_id, ids);
  if (input.style !== 1 && input.style !== 2) {
    errors.add([...path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.");
  }
  if (legacy) maxLength(errors, [...path, "label"], input.label, 45, 1);
  else if (input.label !== undefined) {
    errors.add(
      [...path, "label"],
      "BASE_TYPE_INVALID",
      "A text input inside a label has no label of its own",
    );
  }
  for (const [key, lo, hi] of [
    ["min_length", 0, 4000],
    ["max_length", 1, 4000],
  ] as const) {
    const v = input[key];
    if (v !== undefined && (typeof v !== "number" || v < lo || v > hi)) {
      errors.add([...path, key], "NUMBER_TYPE_MIN_MAX", `Must be between ${lo} and ${hi}.`);
    }
  }
  maxLength(errors, [...path, "value"], input.value, 4000);
  maxLength(errors, [...path, "placeholder"], input.placeholder, 100);
}

/** Validates the `data` of a MODAL (type 9) callback. */
export function checkModal(errors: FormErrors, path: ErrorPath, data: unknown): void {
  if (!isObj(data)) {
    errors.add(path, "BASE_TYPE_REQUIRED", "This field is required");
    return;
  }
  const ids = new Set<string>();
  maxLength(errors, [...path, "custom_id"], data.custom_id, 100, 1);
  maxLength(errors, [...path, "title"], data.title, 45, 1);
  const rows = arrayOf(errors, [...path, "components"], data.components, 1, 5);
  rows.forEach((row, i) => {
    const p = [...path, "components", i];
    if (!isObj(row)) {
      errors.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    if (row.type === 1) {
      const inner = arrayOf(errors, [...p, "components"], row.components, 1, 1);
      const input = inner[0];
      if (isObj(input) && input.type === 4) checkTextInput(errors, [...p, "components", 0], input, ids, true);
      else
        errors.add([...p, "components", 0, "type"], "UNION_TYPE_CHOICES", "Modal rows hold one text input");
    } else if (row.type === 18) {
      maxLength(errors, [...p, "label"], row.label, 45, 1);
      maxLength(errors, [...p, "description"], row.description, 100);
      const inner = row.component;
      if (!isObj(inner)) errors.add([...p, "component"], "BASE_TYPE_REQUIRED", "This field is required");
      else if (inner.type === 4) checkTextInput(errors, [...p, "component"], inner, ids, false);
      else if (SELECT_TYPES.has(inner.type as number))
        checkSelect(errors, [...p, "component"], inner, ids, true);
      else if (inner.type !== 19) {
        errors.add([...p, "component", "type"], "UNION_TYPE_CHOICES", "Unsupported component in a label");
      }
    } else if (row.type === 10) {
      maxLength(errors, [...p, "content"], row.content, 4000, 1);
    } else {
      errors.add(
        [...p, "type"],
        "UNION_TYPE_CHOICES",
        `Component type ${String(row.type)} not allowed in a modal`,
      );
    }
  });
}

/** Validates the `data` of an APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (type 8) callback. */
export function checkAutocompleteResult(errors: FormErrors, path: ErrorPath, data: unknown): void {
  if (!isObj(data)) {
    errors.add(path, "BASE_TYPE_REQUIRED", "This field is required");
    return;
  }
  const choices = arrayOf(errors, [...path, "choices"], data.choices, 0, 25);
  choices.forEach((choice, i) => {
    const p = [...path, "choices", i];
    if (!isObj(choice)) {
      errors.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    maxLength(errors, [...p, "name"], choice.name, 100, 1);
    if (typeof choice.value === "string") maxLength(errors, [...p, "value"], choice.value, 100);
    else if (typeof choice.value !== "number") errors.add([...p, "value"], "BASE_TYPE_REQUIRED", "Required");
  });
}

// ---------------------------------------------------------------------------------------------
// Reading messages back

function componentText(c: unknown, out: string[]): void {
  if (!isObj(c)) return;
  for (const key of ["label", "placeholder", "content", "description"] as const) {
    if (typeof c[key] === "string") out.push(c[key] as string);
  }
  if (Array.isArray(c.options)) {
    for (const o of c.options) {
      if (isObj(o)) {
        if (typeof o.label === "string") out.push(o.label);
        if (typeof o.description === "string") out.push(o.description);
      }
    }
  }
  if (Array.isArray(c.components)) for (const child of c.components) componentText(child, out);
  if (isObj(c.component)) componentText(c.component, out);
  if (isObj(c.accessory)) componentText(c.accessory, out);
}

/** Everything a reader could see in a message, flattened into one string (for searching and audits). */
export function visibleText(message: { content: string; embeds: unknown[]; components: unknown[] }): string {
  const out: string[] = [];
  if (message.content) out.push(message.content);
  for (const e of message.embeds) {
    if (!isObj(e)) continue;
    if (isObj(e.author) && typeof e.author.name === "string") out.push(e.author.name);
    if (typeof e.title === "string") out.push(e.title);
    if (typeof e.description === "string") out.push(e.description);
    if (Array.isArray(e.fields)) {
      for (const f of e.fields) if (isObj(f)) out.push(String(f.name ?? ""), String(f.value ?? ""));
    }
    if (isObj(e.footer) && typeof e.footer.text === "string") out.push(e.footer.text);
  }
  for (const c of message.components) componentText(c, out);
  return out.join("\n");
}

/** Finds a component (button or select) by custom_id anywhere in a component tree. */
export function findComponent(components: unknown[], customId: string): Obj | null {
  for (const c of components) {
    if (!isObj(c)) continue;
    if (c.custom_id === customId) return c;
    const nested = [
      ...(Array.isArray(c.components) ? c.components : []),
      ...(isObj(c.accessory) ? [c.accessory] : []),
      ...(isObj(c.component) ? [c.component] : []),
    ];
    const found = findComponent(nested, customId);
    if (found) return found;
  }
  return null;
}
