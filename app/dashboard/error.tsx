"use client";
export { DashboardError as default } from "@/platform/ui/layout/dashboard-error";
