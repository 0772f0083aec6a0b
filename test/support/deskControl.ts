import { serviceControl } from "./serviceControl";

/** A ticket as `GET /_control/tickets` lists it. */
export interface ControlTicket {
	_id: string;
	status: string;
	callerId: number;
	callType: string;
	reporting?: string;
	closedReason?: string;
	messages: Array<{ id: string; message: string; origin: string }>;
}

/** A dashboard action as `GET /_control/actions` lists it, queued or handed over (with the fault on its sync). */
export interface ControlAction {
	runningGameId: string;
	action: { type: string; userId?: string; message?: string };
	fault: string | undefined;
}

/** A session event the service stored (`GET /_control/session-events`). */
export interface ControlSessionEvent {
	type: string;
	sessionId: string;
	date: number;
	runningGameId: string;
}

/** A consent decision the service stored (`GET /_control/consents`). */
export interface ControlConsent {
	userId: string;
	runningGameId: string;
	granted: boolean;
}

const control = serviceControl.call;

/** The deployed profile's control API that plays the agent and the dashboard (test code, no key). */
export const deskControl = {
	/** Queues a dashboard action (kick, notify, shutdown) for a running server. */
	queueAction(this: void, runningGameId: string, kind: string, userId: number, message: string): void {
		control("POST", "/_control/actions", { runningGameId, type: kind, userId: tostring(userId), message });
	},
	/** The dashboard actions of one running server, still queued and handed over. */
	actions(this: void, runningGameId: string): { queued: Array<ControlAction>; delivered: Array<ControlAction> } {
		const answer = control("GET", "/_control/actions") as {
			queued: Array<ControlAction>;
			delivered: Array<ControlAction>;
		};
		const mine = (entry: ControlAction) => entry.runningGameId === runningGameId;
		return { queued: answer.queued.filter(mine), delivered: answer.delivered.filter(mine) };
	},
	/** The session events the service stored for one session. */
	sessionEvents(this: void, sessionId: string): Array<ControlSessionEvent> {
		const answer = control("GET", "/_control/session-events") as { events: Array<ControlSessionEvent> };
		return answer.events.filter((event) => event.sessionId === sessionId);
	},
	/** The consent decisions the service stored. */
	consents(this: void): Array<ControlConsent> {
		return (control("GET", "/_control/consents") as { consents: Array<ControlConsent> }).consents;
	},
	/** Changes the workspace's settings (e.g. `{ privacy: { requireConsent: true } }`). */
	settings(this: void, settings: object): void {
		control("POST", "/_control/settings", settings);
	},
	tickets(this: void): Array<ControlTicket> {
		return (control("GET", "/_control/tickets") as { tickets: Array<ControlTicket> }).tickets;
	},
	reply(this: void, callId: string, message: string): void {
		control("POST", `/_control/calls/${callId}/messages`, { username: "HeadModHana", userId: 7, message });
	},
	claim(this: void, callId: string): void {
		control("POST", `/_control/calls/${callId}/claim`, { actorId: "7" });
	},
	end(this: void, callId: string): void {
		control("POST", `/_control/calls/${callId}/end`, { actorId: "7" });
	},
	/** Makes a call long: `count` messages of `length` characters (the player's own by default, hidden from them). */
	filler(this: void, callId: string, count: number, length: number, origin: "user" | "agent" = "user"): void {
		control("POST", `/_control/calls/${callId}/filler`, { count, length, origin });
	},
	startChat(this: void, runningGameId: string, userId: number): void {
		control("POST", "/_control/chats", {
			runningGameId,
			userId: tostring(userId),
			actorId: "7",
			message: "Hi there",
		});
	},
};
