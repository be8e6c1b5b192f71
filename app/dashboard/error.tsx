"use client";
export { DashboardError as default } from "@/components/layout/dashboard-error";
