import type { Messages } from "../../types.js";

export default {} satisfies Messages;
