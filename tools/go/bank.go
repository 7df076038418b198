package tools

import (
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
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

// ApprovalRequired is transferMoney's typed interrupt data (an object, as genkit Go keeps interrupt data as map[string]any).
type ApprovalRequired struct {
	Reason    string  `json:"reason"`
	LimitUsd  float64 `json:"limitUsd"`
	AmountUsd float64 `json:"amountUsd"`
}

// defineTransferMoney is tools/bank.ts's transferMoney in Go: over 100 USD it interrupts
// (ai.InterruptWith) until restarted; the restart's resumed data says who approved it
// (ai.ResumedValue), `approved: false` rejects it.
func defineTransferMoney(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "transferMoney", "Transfers money. Amounts over 100 USD need a human's approval.", func(ctx *ai.ToolContext, in TransferInput) (Transfer, error) {
		if in.AmountUsd > approvalLimitUsd && !ctx.IsResumed() {
			return Transfer{}, ai.InterruptWith(ctx, ApprovalRequired{Reason: "approval-required", LimitUsd: approvalLimitUsd, AmountUsd: in.AmountUsd})
		}
		if approved, found := ai.ResumedValue[bool](ctx, "approved"); found && !approved {
			return Transfer{Status: "rejected", To: in.To, AmountUsd: in.AmountUsd}, nil
		}
		by, _ := ai.ResumedValue[string](ctx, "approvedBy")
		return Transfer{Status: "done", To: in.To, AmountUsd: in.AmountUsd, ApprovedBy: by}, nil
	})
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
