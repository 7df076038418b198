package tools

import (
	"context"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/ai/exp/tool"
	"github.com/firebase/genkit/go/genkit"
	genkitx "github.com/firebase/genkit/go/genkit/exp"
)

const approvalLimitUsd = 100

type TransferInput struct {
	To        string  `json:"to"`
	AmountUsd float64 `json:"amountUsd"`
}

type Transfer struct {
	Status     string  `json:"status"`
	To         string  `json:"to"`
	AmountUsd  float64 `json:"amountUsd"`
	ApprovedBy string  `json:"approvedBy,omitempty"`
}

// ApprovalRequired is transferMoney's typed interrupt data (an object: genkit Go carries interrupt data as map[string]any).
type ApprovalRequired struct {
	Reason    string  `json:"reason"`
	LimitUsd  float64 `json:"limitUsd"`
	AmountUsd float64 `json:"amountUsd"`
}

// Approval is transferMoney's typed resume data: what a restart tells it (`approved: false` rejects the transfer).
type Approval struct {
	Approved   *bool  `json:"approved,omitempty"`
	ApprovedBy string `json:"approvedBy,omitempty"`
}

// defineTransferMoney is tools/bank.ts's transferMoney in Go, with genkit Go's typed interrupts
// (genkit/exp DefineInterruptibleTool): over 100 USD it interrupts (tool.Interrupt) until
// restarted; the restart's resume data arrives typed as *Approval.
func defineTransferMoney(g *genkit.Genkit) Defined {
	typed := genkitx.DefineInterruptibleTool(g, "transferMoney", "Transfers money. Amounts over 100 USD need a human's approval.", func(ctx context.Context, in TransferInput, approval *Approval) (Transfer, error) {
		if approval == nil {
			if in.AmountUsd > approvalLimitUsd {
				return Transfer{}, tool.Interrupt(ApprovalRequired{Reason: "approval-required", LimitUsd: approvalLimitUsd, AmountUsd: in.AmountUsd})
			}
			return Transfer{Status: "done", To: in.To, AmountUsd: in.AmountUsd}, nil
		}
		if approval.Approved != nil && !*approval.Approved {
			return Transfer{Status: "rejected", To: in.To, AmountUsd: in.AmountUsd}, nil
		}
		return Transfer{Status: "done", To: in.To, AmountUsd: in.AmountUsd, ApprovedBy: approval.ApprovedBy}, nil
	})
	// The typed tool's own Respond takes an Out; its embedded exp.Tool is the ai.Tool genkit offers the model.
	return Defined{Tool: &typed.Tool, Resume: Approval{}}
}

type OrderInput struct {
	OrderID string `json:"orderId"`
}

type Order struct {
	OrderID  string  `json:"orderId"`
	Customer string  `json:"customer"`
	TotalUsd float64 `json:"totalUsd"`
}

func defineLookupOrder(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "lookupOrder", "Looks up an order by id.", func(ctx *ai.ToolContext, in OrderInput) (Order, error) {
		return Order{OrderID: in.OrderID, Customer: "Ada Lovelace", TotalUsd: 240}, nil
	})
}

type Email struct {
	To      string `json:"to"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

type EmailSent struct {
	Status  string `json:"status"`
	To      string `json:"to"`
	Subject string `json:"subject"`
}

// defineSendEmail sends at once: it has no interrupt of its own. A scenario that puts it behind
// genkit Go's ToolApproval middleware (plugins/middleware) sees the middleware hold it.
func defineSendEmail(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "sendEmail", "Sends an email.", func(ctx *ai.ToolContext, in Email) (EmailSent, error) {
		return EmailSent{Status: "sent", To: in.To, Subject: in.Subject}, nil
	})
}
