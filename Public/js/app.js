// The web app's entry point: the shell over the route table (js/routes.js).
import { start } from "./shared/shell.js";
import { areas } from "./routes.js";

start(areas);
