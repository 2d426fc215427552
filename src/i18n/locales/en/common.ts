import type { Messages } from "../../types.js";

export default {
  "system.mountain-witch": "The Mountain Witch",
  "system.beast-hunters": "Beast Hunters",
  "system.fate": "Fate of Panavea (4d3)",

  // Errors shared by every game
  "errors.staleAction":
    "This button or action is no longer valid (it may be from an older message). Use the slash command instead.",
  "errors.noTable": "This channel has no game table yet. A GM can start one with `{/table setup system}`.",
  "errors.wrongSystem":
    "This command belongs to {systems}, but this channel's table plays another game. See `{/help}`.",
  "errors.invalidInput":
    "That input doesn't look right ({field}: {problem}). Check the command's options and try again.",
  "errors.unavailable":
    "The bot's database is temporarily unavailable. Nothing was changed — please try again in a minute.",
  "errors.internal":
    "Something went wrong on our side and nothing was changed. If it happens again, tell the bot's admin (reference {ref}).",
  "errors.concurrentChange":
    "Someone else changed this at the same moment, so your action was not applied and nothing was changed. Look at the current state and try again.",
  "errors.effect.missingPermissions":
    "Done, but I couldn't post about it in {channel}: I'm missing the Send Messages or Embed Links permission there. Ask a server admin to give me those permissions in that channel.",
  "errors.effect.channelGone":
    "Done, but I couldn't post about it in {channel}: that channel no longer exists.",
  "errors.gmOnly": "Only the table's GM can do that.",
  "errors.gmOrAdminOnly": "Only the table's GM or a server admin (Manage Server) can do that.",
  "errors.notYourCharacter": "**{name}** isn't your character: you can act only for your own.",
  "errors.name.empty": "The name is empty. Give it at least one visible character.",
  "errors.name.tooLong": "That name is too long: at most {max} characters.",
  "errors.name.mention": "Names can't contain mentions (@everyone, @here, <@…>). Pick a plain name.",
  "errors.text.tooLong": "That text is too long: at most {max} characters.",
  "errors.flow.notFound": "That game element (conflict, duel, round…) doesn't exist at this table any more.",
  "errors.flow.closed": "That is already over. Start a new one if you need to.",
  "errors.character.notFound":
    "There's no character called **{name}** at this table. `{/character list}` shows who is here.",
  "errors.character.nameNeeded": "Say which character this is for: fill in the command's character option.",
  "errors.character.nameNeeded.button":
    "This button acts for your own character, and you have none at this table: act for one of your characters with the command instead.",
  "errors.character.noneOwned":
    "You have no character at this table yet. Create one with `{/character create name}`.",
  "errors.character.whichOne": "You have several characters here ({names}): name the one you mean.",
  "errors.character.npcGmOnly": "Only the GM creates GM characters and obstacles.",
  "errors.character.npcHasNoPlayer": "A GM character has no player: leave out `player`, or use `kind:pc`.",
  "errors.character.othersGmOnly": "Only the GM can create a character for another player.",
  "errors.character.zodiacMountainWitchOnly":
    "Zodiac signs are a Mountain Witch rule; this table plays another game.",
  "errors.character.strengthMountainWitchOnly":
    "Opponent strength is a Mountain Witch rule; this table plays another game.",
  "errors.character.pcAlwaysStrong":
    "Player characters are always strong. Strength is for GM characters and obstacles.",
  "errors.character.nameTaken": "There is already a character called **{name}** at this table.",
  "errors.character.zodiacTaken":
    "The sign {sign} is already taken by **{name}**: signs are unique at a table.",
  "errors.character.alreadyDeleted": "That character has already been deleted.",
  "errors.table.guildOnly": "Tables live in server channels, not in DMs.",
  "errors.table.alreadySetUp":
    "This channel already has a table ({system}). The GM can close it with `{/table archive}` first.",
  "errors.table.trustModeMountainWitchOnly":
    "The trust mode is a Mountain Witch setting; leave it out for other games.",
  "errors.table.alreadyGm": "That user is already the GM here.",

  // Table
  "table.setup.title": "🎲 Table set up: {system}",
  "table.setup.next.mountain-witch":
    "GM: {gm}. Players: `{/character create name zodiac}`. Then `{/conflict start}`, `{/duel challenge opponent}`, `{/chapter next}`. Help: `{/help topic}` → “The Mountain Witch”.",
  "table.setup.next.beast-hunters":
    "GM: {gm}. Hunters: `{/character create name}`, then `{/reserve set total ceiling}`. The GM opens a challenge's negotiation with `{/challenge negotiate sphere}`. Help: `{/help topic:beast-hunters}`.",
  "table.setup.next.fate":
    "GM: {gm}. Players: `{/character create name}`, then `{/character skill skill value}` and `{/aspect add name}`. Roll with `{/check skill}`. Help: `{/help topic:fate}`.",
  "table.show.title": "Table: {system}",
  "table.show.gm": "GM",
  "table.show.language": "Language",
  "table.show.chapter": "Chapter",
  "table.show.trustMode": "Trust",
  "table.show.players": "{count, plural, one {Player character (#)} other {Player characters (#)}}",
  "table.show.npcs": "{count, plural, one {GM character (#)} other {GM characters (#)}}",
  "table.language.en": "English",
  "table.language.ru": "Russian",
  "table.trust.secret": "secret",
  "table.trust.open": "open",
  "table.gm.done": "The GM is now {to} (was {from}).",
  "table.language.done":
    "The table now speaks {lang}: its posts and panels are in it. Private answers still come in each player's own Discord language.",
  "table.log.title": "Table log (last {count})",
  "table.log.empty": "Nothing has happened at this table yet.",
  "table.archive.confirm":
    "Close this {system} table? Its data is kept, and the channel can be set up again.",
  "table.archive.button": "Close the table",
  "table.archive.done": "Closed.",
  "table.archive.announce":
    "{user} closed this table. Its books are kept; `{/table setup system}` starts a new one.",

  // Characters
  "character.create.done": "Created **{name}**.",
  "character.gmCharacter": "GM character",
  "character.kind.pc": "Player character",
  "character.kind.npc": "GM character",
  "character.status.active": "active",
  "character.status.incapacitated": "incapacitated",
  "character.status.dead": "dead",
  "character.status.retired": "retired",
  "character.list.title": "{count, plural, one {# character} other {# characters}}",
  "character.list.empty": "No characters yet. `{/character create name}`",
  "character.rename.done": "**{from}** is now **{to}**.",
  "character.delete.confirm": "Delete **{name}**? The log keeps what happened to them.",
  "character.delete.button": "Delete",
  "character.delete.done": "Deleted **{name}**.",
  "character.delete.announce": "{user} deleted the character **{name}**.",

  // Rolls
  "roll.title": "{who} rolls {expression}",
  "roll.titleSecret": "{who} rolls {expression} in secret",
  "roll.reason": "_for: {reason}_",
  "roll.secretFooter": "Only you see this roll.",
  "roll.secretFooterGm": "Only you see this roll; the GM got a copy by DM.",
  "roll.gmCopyTitle": "Secret roll by {who}: {expression}",

  // Log lines
  "log.table.setup": "set up the table ({system})",
  "log.table.gm": "handed the GM role from <@{from}> to <@{to}>",
  "log.table.language": "set the language to {lang}",
  "log.table.archive": "closed the table",
  "log.character.create": "created {name}",
  "log.character.rename": "renamed {from} to {to}",
  "log.character.delete": "deleted {name}",
  "log.roll": "rolled {expression} = {total}",
  "log.roll.secret": "rolled {expression} in secret = {total}",

  // Help
  "help.footer": "{/help topic} — {topics}",
  "help.start.title": "Getting started",
  "help.start.body":
    "1. The GM binds this channel to a game: `{/table setup system}`.\n2. Everyone makes a character: `{/character create name:Akio}`.\n3. Play! The bot rolls, does the arithmetic and keeps the books. `{/table show}` sums up the table, `{/table log}` shows what happened.\nThe table speaks its GM's Discord language (the GM changes it with `{/table language lang}`); private answers come in your own.",
  "help.dice.title": "Dice",
  "help.dice.body":
    "`{/roll expression:2d6+3}` — dice and modifiers. Each answer says how it read them.\n**Keep, drop:** `4d6kh3` (`k3`) keep the highest 3 · `2d20kl1` the lowest · `4d6dl1` (`d1`), `4d6dh1`, `4d10dh1dl2` drop.\n**Explode:** `4d6!` on the maximum · `2d6!=5`, `4d6!>4` on a 5, above 4 · `3d6e6` once on 6+, `3d10ie8` again and again · `3d6!!` compounds · `3d6!p` penetrates (added dice −1).\n**Reroll:** `4d6r1`, `4d6ro<3`, `2d10rg5` once · `4d10rr<3`, `4d10ir2` until the die passes.\n**Successes:** `10d10>=7` or `10d10 t7` counts dice on 7+, `f1` takes one away per 1 · `4d10!t8` explodes 10s and counts 8+.\n**More:** `4d6min3`, `4d6max5` clamp each die · `4d6u` no value twice · `'{'4d6, 2d10'}'k1` keeps the higher sum · `(1d6+2)*2`, `2d20kh1/2` (rounds down), `1d20%7` (remainder).\n**Dice:** `4dF` Fate dice (`4dF.1`: one +, one −); on a Fate table `4d3` is read as Fate dice (1 → +, 2 → −, 3 → 0) · `d%` a d100 · `+d20`/`-d20` advantage/disadvantage · `+d%`/`-d%` a bonus/penalty tens die.\n**Repeat, label:** `6x 4d6kh3` or `6 4d6` (`dndstats`) · `1d20+5 # attack`, `// attack` or `3d6 ! attack` · `3d6 [fire] + 1d4 [cold]` labels each term. Russian notation works: `2к6+3`, `4дф`, `4к6п1`, `4к6пп1`, `4к6мин2`.\n**Read otherwise here:** `r` rerolls once (rpg-dice-roller: until — here `rr`) · `k3` keeps the highest 3 (d20: the 3s) · after `!` a comparison is where dice explode (`4d10!t8` counts successes) · × and ÷ before + and − · a peer’s spelling without a meaning here is refused with ours.\n`{/roll expression:1d20 secret:true}` shows the roll only to you; `{/roll expression:1d20 secret:true gm-copy:true}` also DMs it to the GM.\nAt most 100 dice and 1000 sides per term, 100 extra dice from explosions and 100 rerolls per term.\n**Saved rolls:** {/macro save} keeps a roll under a name, e.g. `4dF+'{'fight'}'`: a skill in curly braces takes its rank from your sheet when rolled. Then {/macro roll}, {/macro list}, {/macro delete}.\n**Statistics:** {/table stats} counts every die rolled at the table against fair dice, with a chart.",
  "help.mountain-witch.title": "The Mountain Witch",
  "help.mountain-witch.round":
    "**How a round goes.** The GM opens a conflict with `{/conflict start}` and adds opponents or obstacles with `{/conflict add name}`; players join with `{/conflict join}` (or the panel's button). Before the roll you may help a friend with `{/conflict assist target}` (1 trust they gave you: your die is added to theirs) or betray them with `{/conflict betray target points}`; a player may declare a trade instead of rolling (`{/conflict trade}`). The GM rolls every die at once: `{/conflict roll}`. Each side counts its highest die; the difference is the degree of success, spent as damage (`{/conflict damage target quality}`) while the winner narrates (or someone buys narration: `{/conflict narrate character}`). `{/conflict end}` closes it.\n**Duel:** `{/duel challenge opponent}` — one against one, each sees only their own dice; roll the next die or strike.\n**Chapters:** the GM ends one with `{/chapter next}`: everyone changes their trust in secret (DMs), then all changes are revealed together.",
  "help.beast-hunters.title": "Beast Hunters",
  "help.beast-hunters.round":
    "**How a round goes.** For each adventure the hunters set the reserve: `{/reserve set total ceiling}`. The GM opens the negotiation with `{/challenge negotiate sphere}` (phases 1–3 on its panel; in phase 2–3 each hunter pre-activates one trait, the GM one in phase 3, each trait once per adventure). It ends in a concession (`{/reserve concede phase}`: the phase's VP to each hunter in it) or in dice: the GM buys the obstacle, `{/challenge start sphere phase}` or the panel's form, with its traits and resources — the bot prices it and charges the reserve (another obstacle before play: `{/challenge obstacle name}`). A won challenge's rating in VP is shared by the hunters still standing, the remainder to the one who dealt the defeating strike. Initiative decides who acts first; then play goes in rounds, each hunter and each obstacle one action a round: activate a trait for attack or defence (`{/challenge activate trait as}`), maneuver for advantage points (`{/challenge maneuver}`), strike with them at 4 AP per die (`{/challenge strike dice}`), neutralise or restore a resource, or work on a task. The panel's buttons do the same. Damage fills the boxes; a knockout loses the challenge, and after fatal damage the hunter chooses with `{/challenge fate choice}`. The GM closes it with `{/challenge end}`.",
  "help.fate.title": "Fate of Panavea",
  "help.fate.round":
    "**How a roll goes.** `{/check skill}` rolls 4d3 read as Fate dice (1 → +, 2 → −, 3 → 0) plus the skill, against a difficulty or a defender (`{/check skill vs}`, `{/check skill target}`). Not enough? Invoke an aspect for +2 or a reroll — the panel's buttons or `{/invoke aspect}` — paying with a free invoke first, then a fate point. The GM compels an aspect with `{/compel target aspect points}` and pays fate points for the trouble.\n**Conflicts** go in exchanges and turns (`{/conflict start}`, `{/conflict next}`, `{/conflict join}`): the target's player applies an attack's hit and picks how to take it — one stress box plus consequences (`{/stress hit character shifts}`); concede before the dice are rolled against you to get fate points. Free invokes belong to whoever earned them and their side. **Contests** (`{/contest start first second}`): one roll each per exchange, first to 3 victories wins. **Challenges** (`{/fate-challenge start title tasks}`): one overcome per task (`{/fate-challenge roll task skill}`), each with a skill not used yet. A fate point also pays for a stunt or a story detail: `{/fp spend on reason}`; compelling yourself waits for the GM's agreement. **Factions** (`{/faction create name}`) roll their abilities with `{/faction check faction ability}` and take hits on Politics, Army or Economy (`{/faction hit name shifts track}`).",

  // Command descriptions and Russian names
  "cmd.help.desc": "How to use the bot, with examples",
  "cmd.help.topic.desc": "What you need help with",
  "cmd.help.topic.choice.start": "Getting started",
  "cmd.help.topic.choice.mountain-witch": "The Mountain Witch",
  "cmd.help.topic.choice.beast-hunters": "Beast Hunters",
  "cmd.help.topic.choice.fate": "Fate (4d3)",
  "cmd.help.topic.choice.dice": "Dice expressions",
  "cmd.table.desc": "Bind this channel to a game and manage the table",
  "cmd.table.setup.desc": "Bind this channel to a game; you become the GM",
  "cmd.table.setup.system.desc": "Which game this table plays",
  "cmd.table.setup.system.choice.mountain-witch": "The Mountain Witch",
  "cmd.table.setup.system.choice.beast-hunters": "Beast Hunters",
  "cmd.table.setup.system.choice.fate": "Fate of Panavea (4d3)",
  "cmd.table.setup.trust.desc": "Mountain Witch: trust changes secret (default) or open",
  "cmd.table.setup.trust.choice.secret": "Secret (revealed together)",
  "cmd.table.setup.trust.choice.open": "Open",
  "cmd.table.show.desc": "Show this table: game, GM, characters",
  "cmd.table.gm.desc": "Hand the GM role to someone else",
  "cmd.table.gm.user.desc": "The new GM",
  "cmd.table.language.desc": "The language of this table's posts and panels",
  "cmd.table.language.lang.desc": "Private answers stay in each player's own Discord language",
  "cmd.table.language.lang.choice.en": "English",
  "cmd.table.language.lang.choice.ru": "Russian",
  "cmd.table.log.desc": "The table's log (only you see it): recent entries, or all of it as a file",
  "cmd.table.log.limit.desc": "How many entries (1–50)",
  "cmd.table.archive.desc": "Close this table (data is kept)",
  "cmd.character.desc": "Characters and their sheets",
  "cmd.character.create.desc": "Create a character",
  "cmd.character.create.name.desc": "The character's name",
  "cmd.character.create.player.desc": "GM only: the player it belongs to",
  "cmd.character.create.kind.desc": "Player character or GM character/obstacle",
  "cmd.character.create.kind.choice.pc": "Player character",
  "cmd.character.create.kind.choice.npc": "GM character or obstacle",
  "cmd.character.create.strength.desc": "Mountain Witch: a GM character's strength",
  "cmd.character.create.strength.choice.weak": "Weak",
  "cmd.character.create.strength.choice.medium": "Medium",
  "cmd.character.create.strength.choice.strong": "Strong",
  "cmd.character.create.zodiac.desc": "Mountain Witch: the zodiac sign (unique per table)",
  "cmd.character.create.zodiac.choice.rat": "Rat",
  "cmd.character.create.zodiac.choice.ox": "Ox",
  "cmd.character.create.zodiac.choice.tiger": "Tiger",
  "cmd.character.create.zodiac.choice.rabbit": "Rabbit",
  "cmd.character.create.zodiac.choice.dragon": "Dragon",
  "cmd.character.create.zodiac.choice.snake": "Snake",
  "cmd.character.create.zodiac.choice.horse": "Horse",
  "cmd.character.create.zodiac.choice.ram": "Ram",
  "cmd.character.create.zodiac.choice.monkey": "Monkey",
  "cmd.character.create.zodiac.choice.rooster": "Rooster",
  "cmd.character.create.zodiac.choice.dog": "Dog",
  "cmd.character.create.zodiac.choice.boar": "Boar",
  "cmd.character.show.desc": "Show a character's sheet",
  "cmd.character.show.name.desc": "Whose sheet (default: yours)",
  "cmd.character.list.desc": "Everyone at this table",
  "cmd.character.rename.desc": "Rename a character",
  "cmd.character.rename.name.desc": "The character",
  "cmd.character.rename.new-name.desc": "The new name",
  "cmd.character.delete.desc": "Delete a character (asks first; kept in the log)",
  "cmd.character.delete.name.desc": "The character",
  "cmd.roll.desc": "Roll dice: 2d6+3, 4d6kh3, 4dF, 2к6",
  "cmd.roll.expression.desc": "What to roll, e.g. 2d6+3, 4d6kh3, 4dF, 6x 3d6",
  "cmd.roll.secret.desc": "Only you see the result",
  "cmd.roll.reason.desc": "What the roll is for",
  "cmd.roll.gm-copy.desc": "With secret: also DM the result to the GM",
  // Dice statistics, log files, backups (/table stats, /table log format, /table export|import)
  "errors.log.badDate":
    "“{value}” is not a date: {/table log from} and {/table log to} take `2026-12-01` or `2026-12-01 18:30` (UTC). Leave them out to take the whole log.",
  "errors.log.emptyRange":
    "The range ends before it begins, so it holds no entries. Swap {/table log from} and {/table log to}, or leave one out.",
  "table.log.file":
    "{count, plural, one {# entry} other {# entries}} of this table's log, as {format}. Secret entries are only in your own copy.",
  "logExport.title": "{system}: table log",
  "logExport.subtitle": "{count, plural, one {# entry} other {# entries}}, exported {at} UTC",
  "logExport.secret": "secret: only in your copy",
  "stats.title": "🎲 Dice at this table ({period})",
  "stats.titleUser": "🎲 One player's dice ({period})",
  "stats.period.day": "last 24 hours",
  "stats.period.week": "last 7 days",
  "stats.period.month": "last 30 days",
  "stats.period.all": "all time",
  "stats.empty": "No dice rolled here in that time yet. Roll with {/roll expression} or any game command.",
  "stats.summary":
    "{count, plural, one {# die} other {# dice}} rolled by {players, plural, one {# player} other {# players}}, game checks included.",
  "stats.summaryUser": "{count, plural, one {# die} other {# dice}} rolled by {user}, game checks included.",
  "stats.size.name": "d{sides}: {count, plural, one {# die} other {# dice}}",
  "stats.size.mean": "average **{mean}** (a fair die: {expected})",
  "stats.verdict.fair": "✅ these dice look fair (χ² p {p})",
  "stats.verdict.off":
    "⚠️ these dice look off: a fair die would roll like this less than 1 time in 100 (χ² p {p})",
  "stats.verdict.tooFew": "too few rolls to judge yet: the test needs {needed} d{sides}",
  "stats.players": "By player",
  "stats.player.size": "d{sides} ×{count}, average {mean} ({expected})",
  "stats.more": "…and {count} more",
  "stats.footer": "Fair means χ² p ≥ 0.01. A secret roll counts only in its roller's own private statistics.",
  "stats.noChart": "No chart: this bot's host lacks the chart renderer (its optional native package).",
  "stats.chart.observed": "rolled",
  "stats.chart.expected": "a fair die",
  "cmd.table.log.format.desc": "Get the whole log (or the from/to range) as a file",
  "cmd.table.log.format.choice.markdown": "Markdown journal",
  "cmd.table.log.format.choice.json": "JSON for tools",
  "cmd.table.log.from.desc": "From this date, UTC: 2026-12-01 or 2026-12-01 18:30",
  "cmd.table.log.to.desc": "To this date, UTC (a date alone takes in that day)",
  "cmd.table.stats.desc": "Dice statistics: counts, averages and a fairness verdict with a chart",
  "cmd.table.stats.user.desc": "Only this player's dice",
  "cmd.table.stats.period.desc": "How far back (default: all time)",
  "cmd.table.stats.period.choice.day": "Last 24 hours",
  "cmd.table.stats.period.choice.week": "Last 7 days",
  "cmd.table.stats.period.choice.month": "Last 30 days",
  "cmd.table.stats.period.choice.all": "All time",
  "cmd.table.stats.public.desc": "Show it to the table (secret rolls are then left out)",
  "errors.backup.invalid":
    "This file can't be restored: {problem}. Nothing was changed. Use the file exactly as {/table export} gave it.",
  "errors.backup.unreadable":
    "I couldn't read **{name}**: a backup is a UTF-8 JSON file of at most 8 MB, as {/table export} gives it. Nothing was changed.",
  "errors.backup.notEmpty":
    "This channel already has a table ({system}). Import into a channel without one, or use {/table import file replace:true} to replace this one after a confirmation.",
  "table.export.done":
    "A backup of this table: {characters, plural, one {# character} other {# characters}}, {entries, plural, one {# log entry} other {# log entries}}, {flows, plural, one {# open flow} other {# open flows}}. Secrets (secret rolls, duel dice, dark fates, trust before its reveal) are sealed inside: only this bot can read them back. Restore it with {/table import file}.",
  "table.import.done":
    "♻️ {user} restored this table from a backup: {system}, {characters, plural, one {# character} other {# characters}}, {entries, plural, one {# log entry} other {# log entries}}, {flows, plural, one {# open flow} other {# open flows}}. {user} is the GM.",
  "table.import.confirm":
    "Replace this table ({system}) with the backup **{name}** ({characters, plural, one {# character} other {# characters}}, {entries, plural, one {# log entry} other {# log entries}})? This table is closed, its books kept, and the backup takes this channel.",
  "table.import.button": "Replace this table",
  "table.import.replaced": "Replaced.",
  "log.table.replaced": "replaced the table with a backup",
  "cmd.table.export.desc": "GM: the whole table as a JSON backup file (secrets sealed)",
  "cmd.table.import.desc": "GM: restore a table from a backup file (made by export)",
  "cmd.table.import.file.desc": "The .json backup file, exactly as export gave it",
  "cmd.table.import.replace.desc": "Replace this channel's table (asks first)",
  "errors.characterImport.fileOrText":
    "Give the sheet either as a file or as text, one of the two: {/character import file} or {/character import text}.",
  "errors.characterImport.invalid":
    "Nothing was saved; fix these and import again (a sheet file is what {/character export name} gives):\n{problems}",
  "errors.characterImport.otherGame":
    "This sheet is for {file}, but this table plays {table}. Import it at a table of that game.",
  "errors.characterImport.notHere": "this game has no such sheet command",
  "character.export.done":
    "**{name}**'s sheet as JSON. Bring it to another table of this game with {/character import file}.",
  "character.import.done":
    "{user} imported **{name}** ({parts, plural, one {# part of the sheet} other {# parts of the sheet}}).",
  "cmd.character.export.desc": "A character's sheet as a JSON file",
  "cmd.character.export.name.desc": "The character",
  "cmd.character.import.desc": "A new character from a sheet file (or its JSON pasted as text)",
  "cmd.character.import.file.desc": "The .json sheet file, as export gave it",
  "cmd.character.import.text.desc": "Or the same JSON, pasted",
  // The campaign page and sessions (page.ts, session.ts).
  "cmd.table.page.desc": "A link to this table's web page: sheets, trust, reserve, journal (only you see it)",
  "cmd.table.page.public.desc": "GM: a spectator link showing public information only",
  "cmd.table.page.revoke.desc": "GM: every link of this table stops working (you get a new one)",
  "cmd.table.session.desc": "Sessions of play",
  "cmd.table.session.end.desc": "GM: end this session and post its recap",
  "errors.page.revokeGmOnly":
    "Only the GM can revoke the table's page links. `{/table page}` gives you your own link.",
  "errors.page.publicGmOnly":
    "Only the GM can make a spectator link. `{/table page}` gives you your own link.",
  "errors.session.nothingYet":
    "Nothing has happened at this table since the last session ended: there is nothing to recap yet.",
  "log.page.revoke": "revoked every link to the table's page",
  "log.session.end": "ended the session",
  "page.link.title": "🌐 The table's page",
  "page.link.member":
    "Your personal link: it shows what you can see in Discord, your own secrets included. Do not share it. It works until {until}.",
  "page.link.gm":
    "Your personal link as GM: do not share it. For spectators use `{/table page public:true}`. It works until {until}.",
  "page.link.spectator": "A spectator link: public information only, safe to share. It works until {until}.",
  "page.revoked": "Every earlier link to this table's page has stopped working.",
  "session.recap.title": "📜 Session recap",
  "session.recap.chapterTitle": "📜 The session so far, as the chapter ends",
  "session.recap.adventureTitle": "📜 The session so far, as the adventure ends",
  "session.recap.footer": "The whole journal is on the table's page: {/table page}",
  "session.recap.empty": "Nothing was logged in this session.",
  "session.recap.summary":
    "{entries, plural, one {# entry} other {# entries}} in the log, {rolls, plural, one {# roll} other {# rolls}}, over {minutes, plural, one {# minute} other {# minutes}}.",
  "session.recap.who": "Who acted: {list}",
  "session.recap.moments": "Key moments:",
  "session.recap.spends": "Biggest reserve spends:",
  "session.recap.sheets": "Sheets changed: {names}",
} satisfies Messages;
