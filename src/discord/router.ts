import {
  ApplicationCommandOptionType,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type CommandInteractionOption,
  DiscordAPIError,
  type Interaction,
  MessageFlags,
  type ModalSubmitInteraction,
  PermissionFlagsBits,
  Routes,
  type StringSelectMenuInteraction,
} from "discord.js";
import { type CommandModule, defaultIntent, type SlashInput } from "../../commands/command.js";
import { findOptionSpec } from "../../commands/spec.js";
import { HELP_TOPICS, helpMessages } from "../app/common/help.js";
import {
  AlreadyProcessed,
  type AppDeps,
  channelTable,
  execute,
  type UseCaseRegistry,
} from "../app/execute.js";
import { flowPanel, setFlowPanel } from "../app/flows.js";
import type { Intent } from "../app/intent.js";
import type { ActionResult, Actor, AutocompleteSource, Effect, Invocation } from "../app/use-case.js";
import type { MessageView } from "../app/views.js";
import { isMessageKey, type Lang, langFromLocale, type MessageKey, t } from "../i18n/index.js";
import { interactionScope, type Logger } from "../log.js";
import { DomainError } from "../rules/errors.js";
import { isDatabaseUnavailable } from "../store/db.js";
import { decodeIntent } from "./custom-id.js";
import { renderApiMessage, renderEdit, renderModal, renderReply } from "./render.js";

/** Past this, the answer is deferred so Discord's 3-second limit can never be missed. */
const DEFER_AFTER_MS = 1200;
/**
 * An interaction already this old when it reaches us (a replay after a slow gateway resume, a
 * stalled process) is deferred before anything is applied: if Discord no longer accepts an
 * answer, the user was told "interaction failed" and will retry, so applying it would double it.
 */
const LATE_ARRIVAL_MS = 2000;

/** Discord refused because the interaction or its token is no longer valid (3 s / 15 min passed). */
function isExpiredInteraction(error: unknown): boolean {
  return error instanceof DiscordAPIError && [10062, 10015, 50027].includes(Number(error.code));
}

/** A message the bot could not post because of the channel itself: permissions, or it is gone. */
function channelProblem(error: unknown): "missingPermissions" | "channelGone" | null {
  if (!(error instanceof DiscordAPIError)) return null;
  if (error.code === 50013 || error.code === 50001) return "missingPermissions";
  if (error.code === 10003) return "channelGone";
  return null;
}

export interface RouterDeps {
  app: AppDeps;
  registry: UseCaseRegistry;
  commands: readonly CommandModule[];
  autocomplete: readonly AutocompleteSource[];
  log: Logger;
  observe?: (command: string, outcome: string, ms: number) => void;
  /** Brings a guild's commands up to date with the games it has tables of (resolves after the first attempt). */
  guildCommandsChanged?: (guildId: string) => Promise<unknown>;
}

/** How long an answer waits for a guild's commands to be updated; past it, they follow on their own. */
const GUILD_COMMANDS_WAIT_MS = 2500;

type ActionInteraction =
  | ChatInputCommandInteraction
  | ButtonInteraction
  | StringSelectMenuInteraction
  | ModalSubmitInteraction;

function actorOf(interaction: Interaction): Actor {
  const member = interaction.member;
  const memberName = member && "displayName" in member ? member.displayName : undefined;
  return {
    userId: interaction.user.id,
    displayName: memberName ?? interaction.user.globalName ?? interaction.user.username,
    locale: interaction.locale,
    canManageGuild: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
  };
}

function invocationOf(interaction: Interaction): Invocation {
  return {
    interactionId: interaction.id,
    interactionToken: interaction.token,
    applicationId: interaction.applicationId,
    actor: actorOf(interaction),
    guildId: interaction.guildId,
    channelId: interaction.channelId ?? "",
    ...("message" in interaction && interaction.message
      ? {
          sourceMessageId: interaction.message.id,
          sourceMessagePublic:
            interaction.guildId !== null && !interaction.message.flags.has(MessageFlags.Ephemeral),
        }
      : {}),
  };
}

/** The largest uploaded file read (an import): a table's whole export fits many times over. */
const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

/**
 * An attachment option, read before the use case runs (which never does I/O of its own): its
 * text, or null when it is too large, not UTF-8 or could not be downloaded.
 */
async function readAttachment(attachment: { url: string; name: string; size: number }) {
  const file = { name: attachment.name, size: attachment.size };
  if (attachment.size > MAX_UPLOAD_BYTES) return { ...file, text: null };
  try {
    const response = await fetch(attachment.url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return { ...file, text: null };
    const bytes = await response.arrayBuffer();
    if (bytes.byteLength > MAX_UPLOAD_BYTES) return { ...file, text: null };
    return { ...file, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { ...file, text: null };
  }
}

/** Slash options that are files: name → the attachment Discord resolved. */
function slashAttachments(interaction: ChatInputCommandInteraction) {
  const found: Record<string, { url: string; name: string; size: number }> = {};
  const walk = (list: readonly CommandInteractionOption[]) => {
    for (const option of list) {
      if (option.type === ApplicationCommandOptionType.Attachment && option.attachment) {
        found[option.name] = option.attachment;
      }
      walk(option.options ?? []);
    }
  };
  walk(interaction.options.data);
  return found;
}

function slashInput(interaction: ChatInputCommandInteraction): SlashInput {
  const path: string[] = [];
  const options: SlashInput["options"] = {};
  const walk = (list: readonly CommandInteractionOption[]) => {
    for (const option of list) {
      if (option.type === ApplicationCommandOptionType.Attachment) continue;
      if (
        option.type === ApplicationCommandOptionType.SubcommandGroup ||
        option.type === ApplicationCommandOptionType.Subcommand
      ) {
        path.push(option.name);
        walk(option.options ?? []);
      } else if (option.value !== undefined && option.value !== null) {
        options[option.name] = option.value;
      }
    }
  };
  walk(interaction.options.data);
  return { command: interaction.commandName, path, options };
}

function errorView(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): MessageView {
  return { ephemeral: true, embeds: [{ description: `⚠️ ${t(lang, key, params)}`, tone: "failure" }] };
}

/** Whether a command's answer is private: the guess a deferral must make before the use case has run. */
function repliesPrivately(registry: UseCaseRegistry, intent: Intent): boolean {
  return registry
    .candidates(intent.type)
    .some((u) => (typeof u.ephemeral === "function" ? u.ephemeral(intent as never) : u.ephemeral));
}

/** Acknowledges now and answers later: a component updates its message, a command "is thinking". */
function deferAnswer(interaction: ActionInteraction, ephemeral: boolean) {
  return interaction.isChatInputCommand()
    ? interaction.deferReply(ephemeral ? { flags: "Ephemeral" } : {})
    : (interaction as ButtonInteraction).deferUpdate();
}

/**
 * Start-up is not over (the database is starting, or not there yet): acknowledge the interaction
 * now, so Discord's 3 s are kept, for the router to answer once it exists (or `answerUnavailable`).
 * Autocomplete cannot wait and gets no choices. False when it could not be acknowledged any more
 * (it expired on the way): the user was told it failed, so it must not be applied.
 */
export async function acknowledgeWhileStarting(
  interaction: Interaction,
  registry: UseCaseRegistry,
): Promise<boolean> {
  if (interaction.isAutocomplete()) {
    await interaction.respond([]);
    return false;
  }
  if (interaction.isChatInputCommand()) {
    await deferAnswer(interaction, repliesPrivately(registry, defaultIntent(slashInput(interaction))));
    return true;
  }
  if (interaction.isButton() || interaction.isStringSelectMenu() || interaction.isModalSubmit()) {
    await deferAnswer(interaction, true);
    return true;
  }
  return false;
}

/**
 * `/help` needs no database: while start-up waits for it, answer at once in the user's Discord
 * language (the table's game and a chosen bot language are in the database: the topic "start").
 */
export async function answerHelpWhileStarting(interaction: ChatInputCommandInteraction): Promise<void> {
  const chosen = interaction.options.getString("topic");
  const topic = HELP_TOPICS.find((t) => t === chosen) ?? "start";
  const [first, ...more] = helpMessages(langFromLocale(interaction.locale), topic);
  // Private, as the help use case's answers are.
  await interaction.reply(renderReply({ ...first!, ephemeral: true }));
  for (const view of more) await interaction.followUp(renderReply({ ...view, ephemeral: true }));
}

export function createRouter(client: Client, deps: RouterDeps) {
  const commands = new Map(deps.commands.map((c) => [c.spec.name, c]));
  const sources = new Map(deps.autocomplete.map((s) => [s.name, s]));
  let inFlight = 0;
  let drained: (() => void) | null = null;
  /** Panels whose answer is on its way, by flow: their message id is stored once Discord has it. */
  const panelsBeingPosted = new Map<number, Promise<void>>();

  /**
   * Where the panel to edit is: as read with its flow; if it had no message id yet, the panel may
   * be one another answer is posting this moment (a command right after the one that opened the
   * flow), so once that answer has stored the id.
   */
  async function panelPlace(effect: Extract<Effect, { kind: "editPanel" }>) {
    const { flowId, panel } = effect;
    if (panel?.messageId)
      return { id: flowId, panelChannelId: panel.channelId, panelMessageId: panel.messageId };
    await panelsBeingPosted.get(flowId);
    return flowPanel(deps.app.db, flowId);
  }

  /** Notes that `flowId`'s panel is being posted, until the returned function is called. */
  function panelBeingPosted(flowId: number | undefined): () => void {
    if (flowId === undefined) return () => {};
    let posted!: () => void;
    const waiting = new Promise<void>((resolve) => {
      posted = resolve;
    });
    panelsBeingPosted.set(flowId, waiting);
    return () => {
      posted();
      if (panelsBeingPosted.get(flowId) === waiting) panelsBeingPosted.delete(flowId);
    };
  }

  async function runEffects(interaction: ActionInteraction, effects: readonly Effect[], lang: Lang) {
    for (const effect of effects) {
      try {
        await runEffect(interaction, effect, lang);
      } catch (error) {
        if (effect.kind === "editInteractionReply" && isExpiredInteraction(error)) {
          // That answer's 15-minute token has expired: nothing can edit it any more.
          deps.log.info(
            { effect: effect.kind, interactionId: interaction.id },
            "interaction token expired: earlier answer left as it was",
          );
          continue;
        }
        deps.log.warn({ err: error, effect: effect.kind, interactionId: interaction.id }, "effect failed");
        const problem = channelProblem(error);
        const channelId = "channelId" in effect ? effect.channelId : undefined;
        if (
          problem &&
          (effect.kind === "post" || effect.kind === "postPanel" || effect.kind === "editPanel")
        ) {
          // The action itself was applied; tell the one who acted why the table did not see it.
          const where = channelId ?? interaction.channelId ?? "";
          await interaction
            .followUp(renderReply(errorView(lang, `errors.effect.${problem}`, { channel: `<#${where}>` })))
            .catch((e) =>
              deps.log.warn({ err: e, interactionId: interaction.id }, "could not deliver notice"),
            );
        }
      }
    }
  }

  /** Before the answer (the deferral timer still running): the commands it may tell the user to use. */
  async function updateGuildCommands(effects: readonly Effect[]) {
    for (const effect of effects) {
      if (effect.kind !== "guildCommands" || !deps.guildCommandsChanged) continue;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        deps.guildCommandsChanged(effect.guildId).catch(() => {}),
        new Promise((resolve) => {
          timer = setTimeout(resolve, GUILD_COMMANDS_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    }
  }

  async function runEffect(interaction: ActionInteraction, effect: Effect, lang: Lang) {
    switch (effect.kind) {
      case "guildCommands":
        return; // done before the answer (updateGuildCommands)
      case "editPanel": {
        const flow = await panelPlace(effect);
        if (!flow?.panelChannelId || !flow.panelMessageId) return;
        try {
          await client.rest.patch(Routes.channelMessage(flow.panelChannelId, flow.panelMessageId), {
            body: renderApiMessage(effect.view),
          });
        } catch (error) {
          // The panel was deleted: post a fresh one so the flow stays playable.
          if (error instanceof DiscordAPIError && error.code === 10008) {
            await runEffect(
              interaction,
              { kind: "postPanel", flowId: flow.id, channelId: flow.panelChannelId, view: effect.view },
              lang,
            );
          } else throw error;
        }
        return;
      }
      case "postPanel": {
        const message = (await client.rest.post(Routes.channelMessages(effect.channelId), {
          body: renderApiMessage(effect.view),
        })) as { id: string };
        await setFlowPanel(deps.app.db, effect.flowId, effect.channelId, message.id);
        return;
      }
      case "post":
        await client.rest.post(Routes.channelMessages(effect.channelId), {
          body: renderApiMessage(effect.view),
        });
        return;
      case "followup":
        await interaction.followUp(renderReply(effect.view));
        return;
      case "editInteractionReply":
        await client.rest.patch(
          Routes.webhookMessage(
            interaction.applicationId,
            effect.interactionToken,
            effect.messageId ?? "@original",
          ),
          { body: renderApiMessage(effect.view), auth: false },
        );
        return;
      case "dm": {
        try {
          const channel = (await client.rest.post(Routes.userChannels(), {
            body: { recipient_id: effect.userId },
          })) as {
            id: string;
          };
          await client.rest.post(Routes.channelMessages(channel.id), { body: renderApiMessage(effect.view) });
        } catch (error) {
          const closed = error instanceof DiscordAPIError && (error.code === 50007 || error.code === 50278);
          if (!closed || !effect.ifClosed) throw error;
          if (effect.ifClosed.channelId && effect.ifClosed.view) {
            await client.rest.post(Routes.channelMessages(effect.ifClosed.channelId), {
              body: renderApiMessage(effect.ifClosed.view),
            });
          }
          if (effect.ifClosed.intent) {
            const invocation = invocationOf(interaction);
            const follow = await execute(
              deps.app,
              deps.registry,
              { ...invocation, interactionId: `${invocation.interactionId}:dm-closed:${effect.userId}` },
              effect.ifClosed.intent,
            );
            await runEffects(interaction, follow.result.effects ?? [], lang);
          }
        }
        return;
      }
    }
  }

  /** Answers a command or component with the use case's result, deferring if it runs long. */
  async function perform(
    interaction: ActionInteraction,
    rawIntent: Intent,
    label: string,
    /** Completes the intent (reads attached files) once the deferral timer runs. */
    prepare?: (intent: Intent) => Promise<void>,
  ) {
    const started = performance.now();
    const isComponent = !interaction.isChatInputCommand();
    const defer = () => deferAnswer(interaction, repliesPrivately(deps.registry, rawIntent));
    let deferral: Promise<unknown> | null = null;
    let timer: NodeJS.Timeout | undefined;

    // Everything this function shows is private to the one who acted: in their own language.
    const lang: Lang = langFromLocale(interaction.locale);
    let outcome = "ok";
    try {
      if (interaction.deferred) {
        // Acknowledged while start-up was still going on (acknowledgeWhileStarting).
        deferral = Promise.resolve();
      } else if (Date.now() - interaction.createdTimestamp > LATE_ARRIVAL_MS) {
        try {
          await defer();
          deferral = Promise.resolve();
        } catch (error) {
          // Already acknowledged: a redelivery of an interaction that was answered.
          if (error instanceof DiscordAPIError && error.code === 40060) throw new AlreadyProcessed();
          if (!isExpiredInteraction(error)) throw error;
          outcome = "expired";
          deps.log.warn(
            {
              interactionId: interaction.id,
              command: label,
              ageMs: Date.now() - interaction.createdTimestamp,
            },
            "interaction expired before it could be answered: not applied",
          );
          return;
        }
      } else {
        timer = setTimeout(() => {
          deferral = defer().catch((error) => deps.log.warn({ err: error }, "defer failed"));
        }, DEFER_AFTER_MS);
      }
      let result: ActionResult;
      try {
        await prepare?.(rawIntent);
        const executed = await execute(deps.app, deps.registry, invocationOf(interaction), rawIntent);
        result = executed.result;
        await updateGuildCommands(result.effects ?? []);
      } finally {
        clearTimeout(timer);
        if (deferral) await deferral;
      }
      const panelPosted = panelBeingPosted(result.replyIsPanelOf);
      try {
        await respond(interaction, result, interaction.deferred);
      } catch (error) {
        if (!isExpiredInteraction(error)) throw error;
        outcome = "late";
        await answerInChannel(interaction, result, label);
      } finally {
        panelPosted();
      }
      await runEffects(interaction, result.effects ?? [], lang);
    } catch (error) {
      if (error instanceof AlreadyProcessed) {
        outcome = "duplicate";
        return;
      }
      let view: MessageView;
      if (error instanceof DomainError) {
        outcome = "refused";
        // A button or menu has no options: a refusal that would name some has a variant without.
        const buttonCode = `${error.code}.button`;
        const code = isComponent && isMessageKey(buttonCode) ? buttonCode : error.code;
        view = errorView(lang, code, error.params as Record<string, string | number>);
      } else if (isDatabaseUnavailable(error)) {
        outcome = "unavailable";
        deps.log.error({ err: error, interactionId: interaction.id, command: label }, "database unavailable");
        view = errorView(lang, "errors.unavailable");
      } else {
        outcome = "error";
        deps.log.error({ err: error, interactionId: interaction.id, command: label }, "interaction failed");
        view = errorView(lang, "errors.internal", { ref: interaction.id });
      }
      await sendError(interaction, view, interaction.deferred).catch((e) =>
        deps.log.warn({ err: e, interactionId: interaction.id }, "could not deliver error"),
      );
    } finally {
      const ms = performance.now() - started;
      deps.observe?.(label, outcome, ms);
      deps.log.info(
        {
          interactionId: interaction.id,
          command: label,
          guildId: interaction.guildId,
          outcome,
          ms: Math.round(ms),
        },
        "interaction",
      );
    }
  }

  async function respond(interaction: ActionInteraction, result: ActionResult, deferred: boolean) {
    if (result.modal) {
      if (interaction.isModalSubmit()) throw new Error("a modal cannot open another modal");
      await interaction.showModal(renderModal(result.modal) as never);
      return;
    }
    const view = result.reply;
    const isComponent = !interaction.isChatInputCommand();
    let messageId: string | undefined;
    if (!view) {
      if (!deferred && isComponent) await (interaction as ButtonInteraction).deferUpdate();
      return;
    }
    if (isComponent && result.replyMode === "update") {
      if (deferred) await interaction.editReply(renderEdit(view));
      else await (interaction as ButtonInteraction).update(renderEdit(view));
      messageId = (interaction as ButtonInteraction).message?.id;
    } else if (deferred) {
      if (isComponent) {
        messageId = (await interaction.followUp(renderReply(view))).id;
      } else if (Boolean(view.ephemeral) === Boolean(interaction.ephemeral)) {
        messageId = (await interaction.editReply(renderEdit(view))).id;
      } else {
        await interaction.deleteReply().catch(() => {});
        messageId = (await interaction.followUp(renderReply(view))).id;
      }
    } else {
      // Only a panel needs its message id back; without it Discord's answer is empty (less to parse).
      if (result.replyIsPanelOf !== undefined) {
        const response = await interaction.reply({ ...renderReply(view), withResponse: true });
        messageId = response.resource?.message?.id;
      } else {
        await interaction.reply(renderReply(view));
      }
    }
    if (result.replyIsPanelOf !== undefined && messageId && interaction.channelId) {
      await setFlowPanel(deps.app.db, result.replyIsPanelOf, interaction.channelId, messageId);
    }
  }

  /**
   * The action was applied but Discord no longer takes an answer to the interaction (its token
   * expired): a public answer goes to the channel as a plain message; a private one cannot be
   * shown to that one user any more, so it is dropped with a log line.
   */
  async function answerInChannel(interaction: ActionInteraction, result: ActionResult, label: string) {
    const view = result.reply;
    if (view && !view.ephemeral && !result.modal && interaction.channelId) {
      await client.rest.post(Routes.channelMessages(interaction.channelId), { body: renderApiMessage(view) });
      deps.log.warn(
        { interactionId: interaction.id, command: label },
        "interaction expired: answer posted in the channel",
      );
    } else {
      deps.log.warn(
        { interactionId: interaction.id, command: label },
        "interaction expired: private answer dropped",
      );
    }
  }

  async function sendError(interaction: ActionInteraction, view: MessageView, deferred: boolean) {
    if (!deferred && !interaction.replied && !interaction.deferred) {
      await interaction.reply(renderReply(view));
      return;
    }
    if (interaction.isChatInputCommand() && !interaction.ephemeral) {
      await interaction.deleteReply().catch(() => {});
    }
    await interaction.followUp(renderReply(view));
  }

  async function autocomplete(interaction: AutocompleteInteraction) {
    try {
      const command = commands.get(interaction.commandName);
      const focused = interaction.options.getFocused(true);
      const path = [
        interaction.options.getSubcommandGroup(false),
        interaction.options.getSubcommand(false),
      ].filter((p): p is string => Boolean(p));
      const spec = command && findOptionSpec(command.spec, path, focused.name);
      const sourceName = spec && "autocomplete" in spec ? spec.autocomplete : undefined;
      const source = sourceName ? sources.get(sourceName) : undefined;
      if (!source) return void (await interaction.respond([]));
      const table = interaction.channelId ? await channelTable(deps.app, interaction.channelId) : null;
      const options = Object.fromEntries(
        interaction.options.data
          .flatMap((o) => (o.options ? o.options.flatMap((x) => (x.options ? x.options : [x])) : [o]))
          .map((o) => [o.name, o.value]),
      );
      const choices = await source.choices({
        db: deps.app.db,
        table,
        actor: actorOf(interaction),
        guildId: interaction.guildId,
        userLang: langFromLocale(interaction.locale),
        query: String(focused.value ?? ""),
        options,
      });
      await interaction.respond(
        choices.slice(0, 25).map((c) => ({ name: c.name.slice(0, 100), value: c.value.slice(0, 100) })),
      );
    } catch (error) {
      deps.log.warn({ err: error, interactionId: interaction.id }, "autocomplete failed");
      await interaction.respond([]).catch(() => {});
    }
  }

  function intentFromComponent(
    interaction: ButtonInteraction | StringSelectMenuInteraction | ModalSubmitInteraction,
  ) {
    const intent = decodeIntent(interaction.customId);
    if (!intent) return null;
    if (interaction.isStringSelectMenu()) {
      const field = typeof intent._field === "string" ? intent._field : "value";
      delete intent._field;
      intent[field] = interaction.values.length === 1 ? interaction.values[0] : interaction.values;
    }
    if (interaction.isModalSubmit()) {
      for (const row of interaction.components) {
        for (const component of "components" in row ? row.components : []) {
          if ("customId" in component && "value" in component) intent[component.customId] = component.value;
        }
      }
    }
    return intent;
  }

  /** Handles one interaction; anything logged at process level meanwhile names it (log.ts). */
  function handle(interaction: Interaction) {
    return interactionScope.run({ interactionId: interaction.id }, () => handleInScope(interaction));
  }

  async function handleInScope(interaction: Interaction) {
    inFlight += 1;
    try {
      if (interaction.isAutocomplete()) return await autocomplete(interaction);
      if (interaction.isChatInputCommand()) {
        const input = slashInput(interaction);
        const label = [input.command, ...input.path].join(" ");
        const intent = defaultIntent(input);
        const attachments = Object.entries(slashAttachments(interaction));
        return await perform(interaction, intent, label, async (ready) => {
          for (const [name, attachment] of attachments) ready[name] = await readAttachment(attachment);
        });
      }
      if (interaction.isButton() || interaction.isStringSelectMenu() || interaction.isModalSubmit()) {
        const intent = intentFromComponent(interaction);
        if (!intent) {
          const lang = langFromLocale(interaction.locale);
          await interaction.reply(renderReply(errorView(lang, "errors.staleAction")));
          return;
        }
        return await perform(interaction, intent, `component ${intent.type}`);
      }
    } catch (error) {
      deps.log.error({ err: error, interactionId: interaction.id }, "interaction handler crashed");
    } finally {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    }
  }

  return {
    handle,
    inFlight: () => inFlight,
    /** Resolves when no interaction is being handled (for graceful shutdown). */
    drain(timeoutMs: number): Promise<void> {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

/**
 * The database is not reachable yet (start-up is waiting for it): answer at once with the same
 * "temporarily unavailable, nothing was changed" notice, in the user's language, instead of
 * leaving the interaction unanswered.
 */
export async function answerUnavailable(interaction: Interaction): Promise<void> {
  if (interaction.isAutocomplete()) {
    await interaction.respond([]);
    return;
  }
  if (!interaction.isRepliable()) return;
  const view = errorView(langFromLocale(interaction.locale), "errors.unavailable");
  if (!interaction.deferred) return void (await interaction.reply(renderReply(view)));
  // Acknowledged while starting: a command's "thinking" becomes the notice; a panel stays as it was.
  if (interaction.isChatInputCommand()) await interaction.editReply(renderEdit(view));
  else await interaction.followUp(renderReply(view));
}
