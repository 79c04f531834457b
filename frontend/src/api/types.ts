/** Names for the generated schema types, so feature code never spells `components[...]`. */
import type { components } from "./schema";

type Schemas = components["schemas"];

export type ChatRequest = Schemas["ChatRequest"];
export type ChatResponse = Schemas["ChatResponse"];
export type Choice = Schemas["Choice"];
export type ToolCallRecord = Schemas["ToolCallRecord"];
export type Conversation = Schemas["ConversationPublic"];
export type Message = Schemas["MessagePublic"];
export type Task = Schemas["TaskPublic"];
export type TaskUpdate = Schemas["TaskUpdate"];
export type TokenResponse = Schemas["TokenResponse"];
export type User = Schemas["UserPublic"];
export type TaskCreate = Schemas["TaskCreate"];
export type TaskList = Schemas["TaskListPublic"];
export type Priority = Schemas["Priority"];
export type DueFilter = Schemas["DueFilter"];
export type TaskSort = Schemas["TaskSort"];
export type Reminder = Schemas["ReminderPublic"];
