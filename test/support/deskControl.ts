import { HttpService } from "@rbxts/services";
import { harness } from "./harness";

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

function control(method: "GET" | "POST", path: string, body?: object): unknown {
	const response = HttpService.RequestAsync({
		Url: `${harness.serviceUrl}${path}`,
		Method: method,
		Headers: body !== undefined ? { "Content-Type": "application/json" } : undefined,
		Body: body !== undefined ? HttpService.JSONEncode(body) : undefined,
	});
	if (!response.Success) error(`control ${method} ${path} answered ${response.StatusCode}: ${response.Body}`, 2);
	return HttpService.JSONDecode(response.Body);
}

/** The deployed profile's control API that plays the agent and the dashboard (test code, no key). */
export const deskControl = {
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
	startChat(this: void, runningGameId: string, userId: number): void {
		control("POST", "/_control/chats", {
			runningGameId,
			userId: tostring(userId),
			actorId: "7",
			message: "Hi there",
		});
	},
};
