import type { z } from "zod";
import { GAMES } from "../../commands/index.js";
import type { GameTable } from "../generated/prisma/client.js";
import type { Lang } from "../i18n/index.js";
import type { DiceSource } from "../rules/dice.js";
import { refuse } from "../rules/errors.js";
import type { Db, Tx } from "../store/db.js";
import type { Intent } from "./intent.js";
import type { MessageView, ModalView } from "./views.js";

/** The games a table can play (their ids are the command specs' too). */
export const SYSTEMS = GAMES;
export type System = (typeof SYSTEMS)[number];

/** Who is acting, as Discord told us. */
export interface Actor {
  userId: string;
  displayName: string;
  /** The user's Discord client locale ("ru", "en-US", …). */
  locale: string;
  /** Has Manage Server in this guild: may always recover a table. */
  canManageGuild: boolean;
}

/** One interaction as the app sees it (no discord.js objects). */
export interface Invocation {
  interactionId: string;
  /** For editing this interaction's ephemeral answer later (valid 15 minutes). */
  interactionToken: string;
  applicationId: string;
  actor: Actor;
  guildId: string | null;
  channelId: string;
  /** Set for button/select presses: the message the component is on. */
  sourceMessageId?: string;
  /** That message is in a guild channel and not ephemeral: everyone at the table sees it. */
  sourceMessagePublic?: boolean;
}

/** Whether a use case needs the channel's active table: see `UseCase.table`. */
export type TableNeed = "required" | "optional" | "none";

export interface ActionContext<I extends Intent = Intent, N extends TableNeed = TableNeed> {
  intent: I;
  invocation: Invocation;
  actor: Actor;
  /**
   * Public output (channel posts, panels and their buttons, reveals, closed-DM notes): the
   * table's language (the actor's own when there is no table).
   */
  publicLang: Lang;
  /**
   * Private output to the actor (ephemeral replies, refusals, modals, their DMs): the actor's own
   * language. Private output to someone else (their DM, their secret view): `languageOf` in languages.ts.
   */
  userLang: Lang;
  /**
   * The channel's active table (locked FOR UPDATE when the use case mutates); always there for a
   * use case declared with `table: "required"`.
   */
  table: N extends "required" ? GameTable : GameTable | null;
  /** The transaction for mutating use cases, the plain client otherwise. */
  tx: Tx;
  db: Db;
  dice: DiceSource;
  now: Date;
}

/** Side effects on Discord, run after the transaction has committed (never inside it). */
export type Effect =
  /** Edit the panel message of a flow (no-op when it has none or it was deleted). */
  | {
      kind: "editPanel";
      flowId: number;
      view: MessageView;
      /** Where the panel is, when the use case read it with the flow (saves reading the flow again). */
      panel?: { channelId: string | null; messageId: string | null };
    }
  /** Post a new panel for a flow in a channel and remember its message id. */
  | { kind: "postPanel"; flowId: number; channelId: string; view: MessageView }
  /** Post a message in a channel. */
  | { kind: "post"; channelId: string; view: MessageView }
  /**
   * DM a user. When their DMs are closed, `ifClosed` runs instead: a message to post in
   * `ifClosed.channelId` and/or the intent to run (as the bot) to record that it happened.
   */
  | {
      kind: "dm";
      userId: string;
      view: MessageView;
      ifClosed?: { channelId?: string; view?: MessageView; intent?: Intent };
    }
  /** An extra message to the interacting user (ephemeral when the view says so). */
  | { kind: "followup"; view: MessageView }
  /**
   * The games this guild has tables of may have changed (a table set up or archived): its
   * commands are brought up to date before the answer is sent, so they are there when it is read.
   */
  | { kind: "guildCommands"; guildId: string }
  /** Edit an earlier interaction answer by its token (e.g. a duellist's secret dice message). */
  | { kind: "editInteractionReply"; interactionToken: string; messageId?: string; view: MessageView };

export interface ActionResult {
  /** The answer to this interaction; `modal` opens a form instead. */
  reply?: MessageView;
  modal?: ModalView;
  /** For components: edit the message the component is on instead of answering anew. */
  replyMode?: "new" | "update";
  /** The reply becomes this flow's panel: its message id is stored so later actions can edit it. */
  replyIsPanelOf?: number;
  effects?: Effect[];
}

/**
 * Who may take the action, checked before it runs (on the locked table row when it mutates):
 * `gm` the table's GM; `gm-or-admin` also whoever has Manage Server (to recover a table whose GM
 * is gone). Finer rules (a player for their own character, a participant of a flow) stay in the
 * use case, where the character or the flow is known: `actingCharacter`, `requireControl`.
 */
export type Access = "gm" | "gm-or-admin";

export interface UseCase<I extends Intent = Intent> {
  type: I["type"];
  schema: z.ZodType<I>;
  /** Systems this use case serves; omitted = any table (or none). */
  systems?: readonly System[];
  /**
   * required: the channel must have an active table; optional: use it if there is one;
   * none: don't look (the use case finds its table itself, e.g. from a DM).
   */
  table: TableNeed;
  access?: Access;
  /** Mutating use cases run in one transaction with the table row locked and the interaction id recorded. */
  mutates: boolean;
  /** Whether the answer is ephemeral: decides how to defer if the work runs long. */
  ephemeral: boolean | ((intent: I) => boolean);
  run(ctx: ActionContext<I>): Promise<ActionResult>;
}

/** A use case as written: its intent's schema (from the area's catalogue) names its type. */
export interface UseCaseSpec<I extends Intent, N extends TableNeed> {
  schema: z.ZodType<I>;
  systems?: readonly System[];
  table: N;
  /** Declared access needs the table: `table: "required"`. */
  access?: N extends "required" ? Access : never;
  mutates: boolean;
  ephemeral: boolean | ((intent: I) => boolean);
  run(ctx: ActionContext<I, N>): Promise<ActionResult>;
}

/** The intent type a schema accepts: the literal of its `type` field. */
function schemaType(schema: z.ZodType): string {
  const literal = (schema as unknown as { shape?: { type?: { value?: unknown } } }).shape?.type?.value;
  if (typeof literal !== "string") throw new Error("an intent schema needs a literal `type`");
  return literal;
}

export function defineUseCase<I extends Intent, N extends TableNeed>(spec: UseCaseSpec<I, N>): UseCase<I> {
  const { access, run } = spec;
  return {
    ...spec,
    type: schemaType(spec.schema) as I["type"],
    access,
    run: access
      ? (ctx) => {
          // execute.ts guarantees the table of a `table: "required"` use case.
          const table = ctx.table!;
          const gm = table.gmUserId === ctx.actor.userId;
          if (!gm && access === "gm") refuse("errors.gmOnly");
          if (!gm && access === "gm-or-admin" && !ctx.actor.canManageGuild) refuse("errors.gmOrAdminOnly");
          return run(ctx as ActionContext<I, N>);
        }
      : (run as UseCase<I>["run"]),
  };
}

/** The intent a key of an area's catalogue names, as its use case receives it (validated). */
export type CatalogueIntent<C extends Record<string, z.ZodType>, T extends keyof C> = z.output<C[T]> & Intent;

/**
 * The use case of one type of an area's intent catalogue (`src/app/<area>/intents.ts`): the
 * catalogue gives its schema, `spec` the rest. An area's `use-cases.ts` says with it, once, what
 * all of its use cases share (the game, the table they need).
 */
export function catalogueUseCase<
  C extends Record<string, z.ZodType>,
  T extends keyof C & string,
  N extends TableNeed,
>(
  catalogue: C,
  type: T,
  spec: Omit<UseCaseSpec<CatalogueIntent<C, T>, N>, "schema">,
): UseCase<CatalogueIntent<C, T>> {
  return defineUseCase<CatalogueIntent<C, T>, N>({
    ...spec,
    schema: catalogue[type] as unknown as z.ZodType<CatalogueIntent<C, T>>,
  });
}

/** An autocomplete source: choices for a partly typed option. Must never list secrets. */
export interface AutocompleteSource {
  name: string;
  choices(ctx: {
    db: Db;
    table: GameTable | null;
    actor: Actor;
    /** The guild the user types in (null in DMs). */
    guildId: string | null;
    /** Choices are private: in the typing user's language. */
    userLang: Lang;
    query: string;
    /** Other options already filled in (e.g. the table option in a DM). */
    options: Record<string, unknown>;
  }): Promise<{ name: string; value: string }[]>;
}

/** Places where a game adds to the common commands, without the common code knowing the game. */
export interface SystemHooks {
  /** After a character is created (e.g. Mountain Witch trust links from zodiac, Fate's starting FP). */
  onCharacterCreated?(
    ctx: ActionContext,
    character: import("../generated/prisma/client.js").Character,
  ): Promise<void>;
  /** Sheet fields for `/character show` (public, in the table's language: never a secret). */
  sheetFields?(
    ctx: Pick<ActionContext, "tx" | "publicLang" | "table">,
    character: import("../generated/prisma/client.js").Character,
  ): Promise<{ name: string; value: string; inline?: boolean }[]>;
  /**
   * A number on the sheet by the name a player writes in a saved roll (`{fight}`, `{драка}`):
   * undefined when the sheet has no such number. Games without numbers leave it out.
   */
  sheetNumber?(
    character: import("../generated/prisma/client.js").Character,
    name: string,
  ): number | undefined;
  /**
   * Rows most of this game's actions read first, sent with a mutating action's opening at one of
   * its tables (in the same round trip as the table's lock); the actor's characters always are.
   */
  openingReads?: readonly import("../store/db.js").OpeningRead[];
  /** Extra fields for `/table show` (public, in the table's language: never a secret). */
  tableFields?(
    ctx: Pick<ActionContext, "tx" | "publicLang" | "table">,
  ): Promise<{ name: string; value: string; inline?: boolean }[]>;
}
