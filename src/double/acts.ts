import { snowflake } from "./ids.js";
import type { ChannelRec, CommandRec, MessageRec, OpenModal, Store, UserRec } from "./store.js";
import type { Json, OptionValue } from "./types.js";
import { OptionType } from "./validate-commands.js";
import { findComponent } from "./validate-messages.js";

/**
 * Builders for INTERACTION_CREATE payloads. They do what the Discord client does before anything
 * reaches the bot: find the registered command, type the options from its definition, refuse what
 * the client would refuse (unknown options, wrong types, missing required ones) unless forced.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const names = (defs: Obj[]) => defs.map((d) => String(d.name)).join(", ") || "(none)";

export class ActError extends Error {
  constructor(message: string) {
    super(`DiscordDouble: ${message}`);
  }
}

export function basePayload(
  store: Store,
  init: { id: string; token: string; type: number },
  user: UserRec,
  channel: ChannelRec,
): Json {
  const guild = channel.guildId ? store.guilds.get(channel.guildId) : undefined;
  const payload: Json = {
    id: init.id,
    application_id: store.applicationId,
    type: init.type,
    token: init.token,
    version: 1,
    channel_id: channel.id,
    channel: {
      ...store.channelJson(channel),
      ...(guild ? { permissions: store.memberPermissions(user).toString() } : {}),
    },
    locale: user.locale,
    app_permissions: store.appPermissions(channel).toString(),
    entitlements: [],
    // Discord: a guild install outside a server is reported with the value "0".
    authorizing_integration_owners: { "0": guild ? guild.id : "0" },
    context: guild ? 0 : 1,
    attachment_size_limit: 10_485_760,
  };
  if (guild) {
    payload.guild_id = guild.id;
    payload.guild = { id: guild.id, locale: guild.preferredLocale, features: [] };
    payload.guild_locale = guild.preferredLocale;
    payload.member = store.memberJson(user, guild, true);
  } else {
    payload.user = store.userJson(user);
  }
  return payload;
}

function findCommand(store: Store, channel: ChannelRec, name: string): CommandRec {
  const scoped = channel.guildId ? store.commandsFor(channel.guildId) : [];
  const pick = (list: CommandRec[]) => list.find((c) => c.json.name === name && (c.json.type ?? 1) === 1);
  const found = pick(scoped) ?? pick(store.commandsFor(null));
  if (!found) {
    const known = [...scoped, ...store.commandsFor(null)].map((c) => String(c.json.name));
    throw new ActError(
      `no registered slash command "/${name}" here (registered: ${known.join(", ") || "none"})`,
    );
  }
  return found;
}

function checkUsable(store: Store, cmd: CommandRec, channel: ChannelRec, user: UserRec): void {
  const j = cmd.json;
  const inDm = channel.type === 1;
  if (inDm) {
    if (cmd.guildId) throw new ActError(`/${String(j.name)} is a guild command and cannot be used in DMs`);
    const contexts = Array.isArray(j.contexts) ? (j.contexts as number[]) : null;
    if (contexts ? !contexts.includes(1) : j.dm_permission === false) {
      throw new ActError(`/${String(j.name)} is not available in DMs (contexts/dm_permission)`);
    }
    return;
  }
  const contexts = Array.isArray(j.contexts) ? (j.contexts as number[]) : null;
  if (contexts && !contexts.includes(0)) throw new ActError(`/${String(j.name)} is not available in servers`);
  if (typeof j.default_member_permissions === "string") {
    const needed = BigInt(j.default_member_permissions);
    if ((store.memberPermissions(user) & needed) !== needed) {
      throw new ActError(
        `user ${user.id} cannot see /${String(j.name)}: default_member_permissions ${j.default_member_permissions}`,
      );
    }
  }
}

interface Resolved {
  users?: Record<string, Json>;
  members?: Record<string, Json>;
  channels?: Record<string, Json>;
  roles?: Record<string, Json>;
  attachments?: Record<string, Json>;
}

function typedValue(
  store: Store,
  channel: ChannelRec,
  def: Obj,
  raw: OptionValue,
  where: string,
  force: boolean,
  resolved: Resolved,
): OptionValue {
  const type = def.type as number;
  const fail = (why: string) => {
    throw new ActError(`option "${String(def.name)}" of ${where}: ${why} (got ${JSON.stringify(raw)})`);
  };
  let value: OptionValue = raw;
  switch (type) {
    case OptionType.String:
      if (typeof raw !== "string") {
        if (!force) fail("expected a string");
        value = String(raw);
      }
      if (!force) {
        const s = value as string;
        if (typeof def.min_length === "number" && s.length < def.min_length)
          fail(`shorter than ${def.min_length}`);
        if (typeof def.max_length === "number" && s.length > def.max_length)
          fail(`longer than ${def.max_length}`);
        if (s.length > 6000) fail("longer than 6000");
      }
      break;
    case OptionType.Integer:
    case OptionType.Number:
      if (typeof raw !== "number" || (type === OptionType.Integer && !Number.isInteger(raw))) {
        if (!force) fail(type === OptionType.Integer ? "expected an integer" : "expected a number");
        value = Number(raw);
      }
      if (!force) {
        if (typeof def.min_value === "number" && (value as number) < def.min_value)
          fail(`below ${def.min_value}`);
        if (typeof def.max_value === "number" && (value as number) > def.max_value)
          fail(`above ${def.max_value}`);
        if (Math.abs(value as number) > 2 ** 53) fail("outside ±2^53");
      }
      break;
    case OptionType.Boolean:
      if (typeof raw !== "boolean") fail("expected a boolean");
      break;
    case OptionType.User:
    case OptionType.Mentionable: {
      const user = store.users.get(String(raw));
      if (!user) fail("expected the id of a known user");
      const u = user as UserRec;
      resolved.users = { ...resolved.users, [u.id]: store.userJson(u) };
      const guild = channel.guildId ? store.guilds.get(channel.guildId) : undefined;
      if (guild) {
        const { user: _omit, ...member } = store.memberJson(u, guild, true);
        resolved.members = { ...resolved.members, [u.id]: member };
      }
      value = u.id;
      break;
    }
    case OptionType.Channel: {
      const ch = store.channels.get(String(raw));
      if (!ch || ch.deleted) fail("expected the id of a known channel");
      const c = ch as ChannelRec;
      resolved.channels = {
        ...resolved.channels,
        [c.id]: {
          id: c.id,
          name: c.name,
          type: c.type,
          permissions: "0",
          ...(c.guildId ? { guild_id: c.guildId } : {}),
        },
      };
      value = c.id;
      break;
    }
    case OptionType.Role: {
      const guild = channel.guildId ? store.guilds.get(channel.guildId) : undefined;
      if (!guild || String(raw) !== guild.id)
        fail("only the @everyone role (id = guild id) exists in the double");
      resolved.roles = {
        ...resolved.roles,
        [String(raw)]: store.everyoneRoleJson(guild as NonNullable<typeof guild>),
      };
      break;
    }
    case OptionType.Attachment: {
      // The user uploads the file: the double serves it, as Discord's CDN would.
      if (!isObj(raw) || typeof raw.filename !== "string" || raw.content === undefined) {
        fail("expected a file: { filename, content }");
      }
      const upload = raw as { filename: string; content: string | Uint8Array; contentType?: string };
      const file = {
        id: snowflake(),
        filename: upload.filename,
        contentType: upload.contentType ?? null,
        data: Buffer.from(
          typeof upload.content === "string" ? Buffer.from(upload.content, "utf8") : upload.content,
        ),
      };
      store.files.set(file.id, file);
      resolved.attachments = { ...resolved.attachments, [file.id]: store.attachmentJson(file) };
      value = file.id;
      break;
    }
    default:
      fail(`option type ${type} is not supported by the double`);
  }
  if (!force && Array.isArray(def.choices)) {
    const allowed = (def.choices as Obj[]).map((c) => c.value);
    if (!allowed.includes(value)) fail(`not one of the choices ${JSON.stringify(allowed)}`);
  }
  return value;
}

function leafOptions(
  store: Store,
  channel: ChannelRec,
  defs: Obj[],
  values: Record<string, OptionValue>,
  where: string,
  focus: string | null,
  force: boolean,
  resolved: Resolved,
): Json[] {
  for (const key of Object.keys(values)) {
    if (!defs.some((d) => d.name === key)) {
      throw new ActError(`unknown option "${key}" for ${where}; it has: ${names(defs)}`);
    }
  }
  if (focus !== null && !(focus in values))
    throw new ActError(`focused option "${focus}" needs a (partial) value`);
  const out: Json[] = [];
  for (const def of defs) {
    const name = String(def.name);
    const raw = values[name];
    if (raw === undefined) {
      if (def.required === true && !force && focus === null) {
        throw new ActError(`required option "${name}" missing for ${where}`);
      }
      continue;
    }
    if (name === focus) {
      out.push({ name, type: def.type as number, value: String(raw), focused: true });
      continue;
    }
    out.push({
      name,
      type: def.type as number,
      value: typedValue(store, channel, def, raw, where, force, resolved),
    });
  }
  return out;
}

export interface BuiltCommand {
  command: CommandRec;
  data: Json;
  label: string;
}

/** The `data` of a CHAT_INPUT (or its autocomplete) interaction, typed from the registered definition. */
export function buildCommandData(
  store: Store,
  user: UserRec,
  channel: ChannelRec,
  name: string,
  path: string[],
  values: Record<string, OptionValue>,
  focus: string | null,
  force: boolean,
): BuiltCommand {
  const command = findCommand(store, channel, name);
  if (!force) checkUsable(store, command, channel, user);
  const defs = (Array.isArray(command.json.options) ? command.json.options : []) as Obj[];
  const resolved: Resolved = {};
  const label = ["/" + name, ...path].join(" ");
  const nested = defs.some((d) => d.type === OptionType.Subcommand || d.type === OptionType.SubcommandGroup);
  let options: Json[];
  if (nested) {
    const first = defs.find((d) => d.name === path[0]);
    if (!first) throw new ActError(`${label}: "/${name}" needs a sub-command, one of: ${names(defs)}`);
    if (first.type === OptionType.SubcommandGroup) {
      const subs = (Array.isArray(first.options) ? first.options : []) as Obj[];
      const sub = subs.find((d) => d.name === path[1]);
      if (!sub) throw new ActError(`${label}: group "${String(first.name)}" needs one of: ${names(subs)}`);
      if (path.length > 2) throw new ActError(`${label}: too many path parts`);
      const leaf = leafOptions(
        store,
        channel,
        (sub.options ?? []) as Obj[],
        values,
        label,
        focus,
        force,
        resolved,
      );
      options = [{ name: first.name, type: 2, options: [{ name: sub.name, type: 1, options: leaf }] }];
    } else {
      if (path.length > 1)
        throw new ActError(`${label}: "${String(first.name)}" is a sub-command, not a group`);
      const leaf = leafOptions(
        store,
        channel,
        (first.options ?? []) as Obj[],
        values,
        label,
        focus,
        force,
        resolved,
      );
      options = [{ name: first.name, type: 1, options: leaf }];
    }
  } else {
    if (path.length > 0) throw new ActError(`${label}: "/${name}" has no sub-commands`);
    options = leafOptions(store, channel, defs, values, label, focus, force, resolved);
  }
  const data: Json = { id: command.id, name: command.json.name, type: 1 };
  if (options.length > 0) data.options = options;
  if (command.guildId) data.guild_id = command.guildId;
  if (Object.keys(resolved).length > 0) data.resolved = resolved;
  return { command, data, label };
}

/** The `data` of a component interaction, checked against the message like a Discord client would. */
export function buildComponentData(
  message: MessageRec,
  user: UserRec,
  customId: string,
  values: string[] | null,
  force: boolean,
): Json {
  if (message.deleted) throw new ActError(`message ${message.id} was deleted`);
  if (message.visibleTo !== null && message.visibleTo !== user.id) {
    throw new ActError(`user ${user.id} cannot see message ${message.id} (only ${message.visibleTo} can)`);
  }
  const component = findComponent(message.components, customId);
  if (!component) {
    const ids: string[] = [];
    const walk = (list: unknown[]) => {
      for (const c of list) {
        if (!isObj(c)) continue;
        if (typeof c.custom_id === "string") ids.push(c.custom_id);
        if (Array.isArray(c.components)) walk(c.components);
        if (isObj(c.accessory)) walk([c.accessory]);
      }
    };
    walk(message.components);
    throw new ActError(
      `message ${message.id} has no component "${customId}" (it has: ${ids.join(", ") || "none"})`,
    );
  }
  if (component.disabled === true && !force) throw new ActError(`component "${customId}" is disabled`);
  const type = component.type as number;
  if (values === null) {
    if (type !== 2) throw new ActError(`component "${customId}" is not a button (type ${type})`);
    return { custom_id: customId, component_type: 2 };
  }
  if (![3, 5, 6, 7, 8].includes(type)) throw new ActError(`component "${customId}" is not a select menu`);
  if (!force) {
    const min = typeof component.min_values === "number" ? component.min_values : 1;
    const max = typeof component.max_values === "number" ? component.max_values : 1;
    if (values.length < min || values.length > max) {
      throw new ActError(`select "${customId}" takes ${min}..${max} values, got ${values.length}`);
    }
    if (type === 3) {
      const allowed = ((component.options ?? []) as Obj[]).map((o) => o.value);
      for (const v of values)
        if (!allowed.includes(v)) throw new ActError(`select "${customId}" has no option "${v}"`);
    }
  }
  return { custom_id: customId, component_type: type, values };
}

/** The `data` of a modal submission, mirroring the layout of the modal the bot showed. */
export function buildModalData(
  modal: OpenModal,
  fields: Record<string, string | string[]>,
  force: boolean,
): Json {
  const seen = new Set<string>();
  const input = (c: Obj): Json => {
    const id = String(c.custom_id);
    seen.add(id);
    const given = fields[id];
    if (c.type === 4) {
      const value = typeof given === "string" ? given : given === undefined ? "" : given.join(",");
      if (!force) {
        if (c.required !== false && value.length === 0) throw new ActError(`modal field "${id}" is required`);
        if (typeof c.min_length === "number" && value.length > 0 && value.length < c.min_length) {
          throw new ActError(`modal field "${id}" is shorter than ${c.min_length}`);
        }
        if (typeof c.max_length === "number" && value.length > c.max_length) {
          throw new ActError(`modal field "${id}" is longer than ${c.max_length}`);
        }
      }
      return { type: 4, id: c.id ?? null, custom_id: id, value };
    }
    const values = given === undefined ? [] : Array.isArray(given) ? given : [given];
    if (!force && c.required !== false && values.length === 0) {
      throw new ActError(`modal select "${id}" needs a value`);
    }
    return { type: c.type as number, id: c.id ?? null, custom_id: id, values };
  };
  const components = ((modal.data.components ?? []) as Obj[]).map((row): Json => {
    if (row.type === 1) {
      return { type: 1, id: row.id ?? null, components: ((row.components ?? []) as Obj[]).map(input) };
    }
    if (row.type === 18 && isObj(row.component)) {
      return { type: 18, id: row.id ?? null, component: input(row.component) };
    }
    return { type: row.type as number, id: row.id ?? null };
  });
  for (const key of Object.keys(fields)) {
    if (!seen.has(key)) throw new ActError(`modal "${String(modal.data.custom_id)}" has no field "${key}"`);
  }
  return { custom_id: modal.data.custom_id, components };
}
