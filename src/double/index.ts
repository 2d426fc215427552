export { ActError } from "./acts.js";
export { DiscordDouble, InteractionHandle, MessageFlags, type WaitOptions } from "./double.js";
export { ApiError, FormErrors } from "./errors.js";
export { shardOf, snowflake, snowflakeOnShard } from "./ids.js";
export type * from "./types.js";
export {
  commandSize,
  DISCORD_LOCALES,
  isValidChatInputName,
  validateCommandList,
} from "./validate-commands.js";
export { computeMentions, embedSize, validateMessageBody, visibleText } from "./validate-messages.js";
