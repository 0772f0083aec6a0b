// The client report feature: each client's platform and timezone, which a join waits for up to a timeout.
import { ClientReports, ClientReportStats } from "./clientReports";
import { deliverFromModel, findModelRoot } from "./clientScriptDelivery";
import type { ServerContext } from "../../context";
import type { Feature, FeatureDeclaration } from "../../feature";
import type { JoinsFeature } from "../joins";

/**
 * The client report's settings in `StaffOpsConfig`.
 */
export interface ClientReportConfig {
	/**
	 * Seconds to wait for a player's client report before reporting the join with platform `unknown` and timezone
	 * `-00:00`. Default 20 (chosen from client load times: README#game-integration); 0 to 60.
	 */
	readonly clientReportTimeoutSeconds?: number;
	/**
	 * Deliver the client part to players (the drop-in model and the Wally package: it clones the client part of the
	 * model, with a `RunContext` Client loader, into ReplicatedStorage). Default: on where that client part is there
	 * (the model, the Wally package), off in an npm game, whose own client code calls `startClientReport()`.
	 */
	readonly deliverClient?: boolean;
}

// Its settings join `StaffOpsConfig` (and their resolved types `StaffOpsSettings`): the core names no feature.
declare module "../../config" {
	interface StaffOpsBaseConfig extends ClientReportConfig {}
	interface ResolvedSettings {
		readonly clientReportTimeoutSeconds: number;
		/** As the developer set it (undefined: on where the model's client part is there). */
		readonly deliverClient?: boolean;
	}
}

/**
 * The client report: each client sends its platform and timezone once, and the join waits for it up to a timeout.
 * The drop-in model and the Wally package deliver the client part (the loader) themselves.
 * In the package's declarations for the config type; not an API.
 */
export const CLIENT_REPORT: FeatureDeclaration<ClientReportConfig, "clientReport"> = {
	name: "clientReport",
	settings: [
		{ field: "clientReportTimeoutSeconds", attribute: "ClientReportTimeoutSeconds", default: 20, min: 0, max: 60 },
		{ field: "deliverClient", attribute: "DeliverClient", modelDefault: true },
	],
	remotes: ["ClientReport"],
	clientParts: [{ folder: "report", start: "startClientReport" }],
};

/** Counts of client report events, and the rate limiter's size (memory checks). @internal */
export interface ClientReportDiagnostics extends ClientReportStats {
	readonly limiterKeys: number;
}

/** The client report feature. @internal */
export class ClientReportFeature implements Feature {
	readonly declaration = CLIENT_REPORT;
	readonly reports: ClientReports;

	constructor(
		private readonly ctx: ServerContext,
		joins: JoinsFeature,
	) {
		this.reports = new ClientReports(ctx.players, joins.gathering, ctx.scheduler);
	}

	start(): void {
		this.ctx.listen(this.ctx.remotes!.ClientReport, "client report", (player, args) =>
			this.reports.handle(player, args),
		);
	}

	/**
	 * At `begin`: puts the model's client part where players get it, its loader told to start every feature's client
	 * parts; one default for every way in: on where the model's client part is there.
	 */
	begun(): void {
		const ctx = this.ctx;
		if (ctx.config.deliverClient ?? findModelRoot() !== undefined) {
			ctx.guard("client delivery", () => deliverFromModel(ctx.seams.delivery ?? {}, ctx.clientParts));
		}
	}

	left(player: Player): void {
		this.reports.forget(player.UserId);
	}

	diagnostics(): ClientReportDiagnostics {
		return { ...this.reports.stats, limiterKeys: this.reports.limiterKeys() };
	}
}
