/** The task card's page, bundled and installed by importing this module (src/pages/index.ts says who does). */
import page from "../../dist/pages/task-card.html";
import { installTaskCard } from "./index";

installTaskCard(page);
